/*
 * viewer.js - the interactive part of an fg flame graph SVG.
 *
 * fg-render embeds this file verbatim (minus indentation and whole-line
 * comments) as the last child of <svg>, so it runs once with the whole DOM
 * present. docs/svg-contract.md is the DOM it expects; the configuration
 * comes from data-* attributes of the root <svg>.
 *
 * Design. At load, every frame is read once into flat arrays: name, count
 * (parsed from the <title>, so sums are exact), original geometry, depth
 * (from the distinct rect y values) and the frame tree, which is recovered
 * from geometry: the parent of a frame is the frame of the row below (above
 * when inverted) whose x interval holds it, found by binary search in that
 * row sorted by x, so the index costs O(frames log frames). A pre-order
 * numbering of that tree makes "is in the subtree of" a range test and lets
 * "Matched" count every sample once in one pass.
 * Every view change goes through applyView(). A zoom does not touch the
 * frames outside the zoomed subtree: one transform on #frames scales the
 * graph horizontally around the zoomed frame and a clip keeps the graph
 * area, so unrelated frames (disjoint from the zoomed frame's interval)
 * leave the view by themselves and ancestors (which hold it) cover the
 * full width. Labels live outside #frames so they are never stretched:
 * the writer's labels are moved once into #fg-labels, hidden while zoomed,
 * and the labels of a zoom are fitted in plain JavaScript, measured on a
 * hidden <text> before any write, and drawn from a pool of <text>
 * elements. A zoom costs O(subtree + depth x log(row)) array work and DOM
 * writes for the ancestors' classes and the labels in view; the browser
 * restyles nothing else. URL updates wait until after the next frame.
 *
 * Behaviour (SPEC section 4; what differs from flamegraph.pl is marked *):
 * - hover or keyboard focus: #details shows "NAMETYPE TITLE" followed by
 *   self samples* and, when zoomed, the share of the zoomed frame*.
 * - click: zoom to the frame. Ancestors get class "parent" (faded) and span
 *   the full width, frames outside the subtree are out of view, labels are
 *   re-fitted. Clicking the root or Esc or "Reset Zoom" restores the view.
 * - links (--nameattr href, the frame is an <a>): a plain click follows the
 *   link and Ctrl/Meta/Shift/middle clicks do what the browser does with a
 *   link (new tab, new window), so no mouse click on a link zooms, except
 *   Alt-click*, which zooms. (The original zoomed on Ctrl-click; SPEC says
 *   Ctrl-click must not zoom a link.) Keyboard Enter also zooms any frame.
 * - search: the Search button, Ctrl-F, F3 and "/" open a prompt (prefilled*
 *   with the active term); the term is a regular expression, or literal
 *   text when it is not a valid one*. It is matched against the frame name
 *   only*, not the " (N samples, P%)" suffix. Matches are painted magenta
 *   and #matched shows "Matched: P%" of the whole graph, each sample counted
 *   once, and the active term*. The "x" next to Search* (or an empty term)
 *   clears the search. Ctrl-I and the "ic" button toggle ignore-case.
 * - n / N and the arrow buttons next to Search*: zoom to the next/previous
 *   match in pre-order (left to right, outer frames first).
 * - keyboard focus*: arrow keys move to the parent (Down; Up when
 *   inverted), the first child (Up; Down when inverted) and the previous or
 *   next frame of the same row (Left/Right: the siblings, then the cousins);
 *   Enter zooms the focused frame. The focus is outlined (class "focus").
 * - URL: query parameters x and y (the zoomed frame's original rect x and y)
 *   and s (the search term) are kept up to date with history.replaceState
 *   and applied at load; other parameters are kept. When the browser
 *   refuses replaceState (some file:// setups), the view still works.
 */
(function () {
'use strict';

var SVG_NS = 'http://www.w3.org/2000/svg';
var SEARCH_FILL = 'rgb(230,0,230)';
/* Geometry is written with 0.1 px precision: half of that is "equal". */
var EPS = 0.05;
var framesGroup = document.getElementById('frames');
if (!framesGroup) {
	return;
}
var svg = framesGroup.ownerSVGElement || document.documentElement;

function dataAttr(name, fallback) {
	var v = svg.getAttribute('data-' + name);
	return v === null ? fallback : v;
}
function dataNumber(name, fallback) {
	var v = parseFloat(svg.getAttribute('data-' + name));
	return isFinite(v) ? v : fallback;
}

var nameType = dataAttr('nametype', 'Function:');
var countName = dataAttr('countname', 'samples');
var inverted = dataAttr('inverted', '0') === '1';
var fontSize = dataNumber('fontsize', 12);
var fontWidth = dataNumber('fontwidth', 0.59);
var xpad = dataNumber('xpad', 10);
var frameHeight = dataNumber('frameheight', 16);
var charWidth = fontSize * fontWidth;
var svgWidth = parseFloat(svg.getAttribute('width'));
if (svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width > 0) {
	svgWidth = svg.viewBox.baseVal.width;
}
var fullWidth = svgWidth - 2 * xpad;

var detailsEl = document.getElementById('details');
var unzoomEl = document.getElementById('unzoom');
var searchEl = document.getElementById('search');
var ignoreCaseEl = document.getElementById('ignorecase');
var matchedEl = document.getElementById('matched');

/* ---- the frame table -------------------------------------------------- */

var rectList = framesGroup.getElementsByTagNameNS(SVG_NS, 'rect');
var N = rectList.length;
var els = new Array(N);
var rects = new Array(N);
var texts = new Array(N);
var names = new Array(N);
var titles = new Array(N);
var xStr = new Array(N);
var yStr = new Array(N);
var wStr = new Array(N);
var x0 = new Float64Array(N);
var y0 = new Float64Array(N);
var w0 = new Float64Array(N);
var count = new Float64Array(N);
var isLink = new Uint8Array(N);
var indexOf = new Map();

function childByName(el, localName) {
	for (var c = el.firstElementChild; c; c = c.nextElementSibling) {
		if (c.localName === localName) {
			return c;
		}
	}
	return null;
}

/*
 * "NAME (N COUNTNAME, P%...)": the name ends at the last " (" that is
 * followed by a count, the count name and ", ", so that a " (" inside the
 * count name (or the name) does not cut it.
 */
function splitTitle(t) {
	var tail = ' ' + countName + ', ';
	for (var p = t.lastIndexOf(' ('); p >= 0; p = p > 0 ? t.lastIndexOf(' (', p - 1) : -1) {
		var m = /^[0-9][0-9,]*(\.[0-9]+)?/.exec(t.slice(p + 2));
		if (m && t.substr(p + 2 + m[0].length, tail.length) === tail) {
			return { at: p, number: m };
		}
	}
	p = t.lastIndexOf(' (');
	return { at: p, number: p >= 0 ? /^[0-9][0-9,]*(\.[0-9]+)?/.exec(t.slice(p + 2)) : null };
}

function readFrame(i, rect) {
	var el = rect.parentNode;
	var title = childByName(el, 'title');
	var text = rect.nextElementSibling;
	var t = title ? title.textContent : '';
	var split = splitTitle(t);
	var p = split.at;
	var m = split.number;
	els[i] = el;
	rects[i] = rect;
	texts[i] = text && text.localName === 'text' ? text : null;
	titles[i] = t;
	names[i] = p >= 0 ? t.slice(0, p) : t;
	count[i] = m ? parseFloat(m[0].replace(/,/g, '')) : NaN;
	xStr[i] = rect.getAttribute('x');
	yStr[i] = rect.getAttribute('y');
	x0[i] = parseFloat(xStr[i]) || 0;
	y0[i] = parseFloat(yStr[i]) || 0;
	wStr[i] = rect.getAttribute('width');
	w0[i] = parseFloat(wStr[i]) || 0;
	isLink[i] = el.localName === 'a' ? 1 : 0;
	indexOf.set(el, i);
}

var i, j, k;
for (i = 0; i < N; i++) {
	readFrame(i, rectList[i]);
}

/* Rows: one per distinct y, depth 0 at the bottom (top when inverted). */
var rowKeys = [];
var rowOfKey = new Map();
var depth = new Int32Array(N);
for (i = 0; i < N; i++) {
	k = Math.round(y0[i] * 10);
	if (!rowOfKey.has(k)) {
		rowOfKey.set(k, 0);
		rowKeys.push(k);
	}
}
rowKeys.sort(function (a, b) { return inverted ? a - b : b - a; });
for (i = 0; i < rowKeys.length; i++) {
	rowOfKey.set(rowKeys[i], i);
}
var rows = [];
for (i = 0; i < rowKeys.length; i++) {
	rows.push([]);
}
for (i = 0; i < N; i++) {
	depth[i] = rowOfKey.get(Math.round(y0[i] * 10));
	rows[depth[i]].push(i);
}
function byX(a, b) {
	return x0[a] - x0[b] || w0[a] - w0[b];
}
var rowPos = new Int32Array(N);
for (var d = 0; d < rows.length; d++) {
	rows[d].sort(byX);
	for (j = 0; j < rows[d].length; j++) {
		rowPos[rows[d][j]] = j;
	}
}

/* The parent is the last frame of the row below starting at or before the
 * child whose interval still holds the child. */
var parent = new Int32Array(N).fill(-1);
var firstChild = new Int32Array(N).fill(-1);
function findParent(c, row) {
	var lo = 0;
	var hi = row.length - 1;
	var best = -1;
	while (lo <= hi) {
		var mid = (lo + hi) >> 1;
		if (x0[row[mid]] <= x0[c] + EPS) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	for (var steps = 0; best >= 0 && steps < 64; best--, steps++) {
		var p = row[best];
		if (x0[p] + w0[p] + EPS >= x0[c] + w0[c]) {
			return p;
		}
	}
	return -1;
}
for (d = 1; d < rows.length; d++) {
	for (j = 0; j < rows[d].length; j++) {
		var c = rows[d][j];
		var p = findParent(c, rows[d - 1]);
		parent[c] = p;
		if (p >= 0 && firstChild[p] < 0) {
			firstChild[p] = c;
		}
	}
}

/* Totals: depth-0 frames (normally only "all"). Untitled counts fall back
 * to the frame's share of the root's width. */
var root = -1;
var total = 0;
if (rows.length) {
	for (j = 0; j < rows[0].length; j++) {
		if (root < 0 || w0[rows[0][j]] > w0[root]) {
			root = rows[0][j];
		}
	}
}
for (i = 0; i < N; i++) {
	if (isNaN(count[i])) {
		count[i] = root >= 0 && !isNaN(count[root]) && w0[root] > 0 ?
			Math.round(count[root] * w0[i] / w0[root]) : w0[i];
	}
}
if (rows.length) {
	for (j = 0; j < rows[0].length; j++) {
		total += count[rows[0][j]];
	}
}

/* Self counts and subtree sizes, deepest row first. */
var self = Float64Array.from(count);
var size = new Int32Array(N).fill(1);
for (d = rows.length - 1; d > 0; d--) {
	for (j = 0; j < rows[d].length; j++) {
		c = rows[d][j];
		if (parent[c] >= 0) {
			self[parent[c]] -= count[c];
			size[parent[c]] += size[c];
		}
	}
}
for (i = 0; i < N; i++) {
	if (self[i] < 0) {
		self[i] = 0;
	}
}

/* Pre-order: pre[i] is the position of frame i in order[]; the subtree of
 * i is order[pre[i] .. pre[i] + size[i] - 1]. Children of p are the frames
 * of the next row from firstChild[p] on while their parent is p. */
var pre = new Int32Array(N);
var order = new Int32Array(N);
var next = 0;
var stack = [];
for (d = 0; d < rows.length; d++) {
	for (j = rows[d].length - 1; j >= 0; j--) {
		if (parent[rows[d][j]] < 0) {
			stack.push(rows[d][j]);
		}
	}
	while (stack.length) {
		var f = stack.pop();
		pre[f] = next;
		order[next++] = f;
		var kids = childrenOf(f);
		for (k = kids.length - 1; k >= 0; k--) {
			stack.push(kids[k]);
		}
	}
}
function childrenOf(f) {
	var out = [];
	var c = firstChild[f];
	if (c < 0) {
		return out;
	}
	var row = rows[depth[c]];
	for (var q = rowPos[c]; q < row.length && parent[row[q]] === f; q++) {
		out.push(row[q]);
	}
	return out;
}

/* ---- view state ---------------------------------------------------------- */

var zoomed = -1;
var focused = -1;
var focusShown = false;

/* Numbers as written by the viewer: two decimals at most. */
function fmt(v) {
	return String(Math.round(v * 100) / 100);
}

function formatCount(v) {
	var s = String(Math.round(v * 100) / 100);
	var dot = s.indexOf('.');
	var intPart = dot < 0 ? s : s.slice(0, dot);
	return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dot < 0 ? '' : s.slice(dot));
}

function pct(part, whole) {
	return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '0.00%';
}

/* ---- layers -------------------------------------------------------------- */

/* A zoom scales #frames horizontally, and text under a scale would be
 * stretched (and re-shaped by the browser at every zoom), so the labels
 * leave the frames: the writer's labels move, once, to #fg-labels, which
 * stays unscaled and is hidden while zoomed; the labels of a zoom are drawn
 * in #fg-zoom-labels from a pool of <text> elements. Both follow #frames. */
var labelLayer = document.createElementNS(SVG_NS, 'g');
var zoomLabelLayer = document.createElementNS(SVG_NS, 'g');
labelLayer.setAttribute('id', 'fg-labels');
zoomLabelLayer.setAttribute('id', 'fg-zoom-labels');
var labelY = new Array(N);
for (i = 0; i < N; i++) {
	if (texts[i]) {
		labelY[i] = texts[i].getAttribute('y');
		labelLayer.appendChild(texts[i]);
	} else {
		labelY[i] = fmt(y0[i] + (frameHeight - 1) / 2 + 3);
	}
}
framesGroup.parentNode.insertBefore(zoomLabelLayer, framesGroup.nextSibling);
framesGroup.parentNode.insertBefore(labelLayer, zoomLabelLayer);

/* ---- labels -------------------------------------------------------------- */

var measurer = null;
var measuredText = null;
var fullWidthOf = new Map();
var dotsWidth = -1;

function setMeasured(s) {
	if (!measurer) {
		/* In the zoom label layer, so it gets exactly the labels' style. */
		measurer = document.createElementNS(SVG_NS, 'text');
		measurer.setAttribute('id', 'fg-measure');
		measurer.setAttribute('x', '0');
		measurer.setAttribute('y', '-100');
		measurer.appendChild(document.createTextNode(''));
		zoomLabelLayer.appendChild(measurer);
	}
	if (measuredText !== s) {
		measurer.firstChild.nodeValue = s;
		measuredText = s;
	}
}

function measureFull(s) {
	var v = fullWidthOf.get(s);
	if (v === undefined) {
		setMeasured(s);
		v = measurer.getComputedTextLength();
		fullWidthOf.set(s, v);
	}
	return v;
}

function isHighSurrogate(s, k) {
	var code = s.charCodeAt(k);
	return code >= 0xD800 && code <= 0xDBFF;
}

/* The label of a name drawn in a box w px wide: the whole name when it
 * fits, else the longest prefix that fits followed by "..". A name surely
 * fits when even 1 em per character fits; only other names are measured. */
function fitLabel(name, w) {
	if (name === '' || Math.floor(w / charWidth) < 3) {
		return '';
	}
	var avail = w - 4;
	if (name.length * fontSize <= avail) {
		return name;
	}
	return fitText(name, avail);
}

/* s if it is at most avail px wide, else its longest prefix that is with
 * "..", or '' when not even one character is. */
function fitText(s, avail) {
	try {
		if (measureFull(s) <= avail) {
			return s;
		}
		if (dotsWidth < 0) {
			dotsWidth = measureFull('..');
		}
		setMeasured(s);
		var lo = 0;
		var hi = s.length - 1;
		while (lo < hi) {
			var mid = (lo + hi + 1) >> 1;
			if (measurer.getSubStringLength(0, mid) + dotsWidth <= avail) {
				lo = mid;
			} else {
				hi = mid - 1;
			}
		}
		if (lo > 0 && isHighSurrogate(s, lo - 1)) {
			lo--;
		}
		return lo > 0 ? s.slice(0, lo) + '..' : '';
	} catch (e) {
		/* No layout (e.g. display:none document): estimate like the server. */
		var chars = Math.floor((avail + 4) / charWidth);
		if (s.length <= chars) {
			return s;
		}
		chars -= 2;
		if (chars > 0 && isHighSurrogate(s, chars - 1)) {
			chars--;
		}
		return chars > 0 ? s.slice(0, chars) + '..' : '';
	}
}

/* Width of s drawn in the labels' (and the details line's) font. */
function textWidth(s) {
	try {
		setMeasured(s);
		return measurer.getComputedTextLength();
	} catch (e) {
		return s.length * charWidth;
	}
}

/* The last fitted label of each frame, for the width it was fitted to. */
var fittedWidth = new Float64Array(N).fill(-1);
var fitted = new Array(N);

function labelOf(f, w) {
	if (fittedWidth[f] !== w) {
		fitted[f] = fitLabel(names[f], w);
		fittedWidth[f] = w;
	}
	return fitted[f];
}

/* ---- applying a view ----------------------------------------------------- */

/* A zoom to frame z with ratio r = fullWidth / w0[z] is one transform on
 * #frames, x -> e + r * x, and a clip to the graph area (written in the
 * clip's user space, which is #frames' own, transformed one). Up to ratio
 * EXACT_RATIO, e = xpad - r * x0[z]: the subtree of z lands on the graph
 * area scaled by r; ancestors hold z's interval, so they cover the whole
 * area; every other frame is disjoint from that interval and falls outside
 * the clip, so nothing but a few classes is written: ancestors get class
 * "parent", frames that overlap the interval by rounding get "hide", and
 * the labels of the frames in view are drawn from the pool.
 * Beyond that ratio, the browser's single-precision arithmetic on e + r * x
 * (x up to the image width W) is off by up to r * W * 2^-24 px (0.007 px at
 * ratio 100, a whole pixel at ratio 10,000), so the
 * frames in view get their rect x (and ancestors their width) rewritten to
 * small numbers that land exactly, and e puts every frame left untouched to
 * the right of the graph area. The subtree is then at most fullWidth /
 * EXACT_RATIO px wide: few frames. The reset restores the writer's
 * attributes. */
var EXACT_RATIO = 100;
var minX = Infinity;
for (i = 0; i < N; i++) {
	minX = Math.min(minX, x0[i]);
}
var rebased = [];
var mark = new Uint8Array(N);
var marked = [];
var PARENT = 1;
var HIDE = 2;
var STALE = 4;
var pool = [];
var poolX = [];
var poolY = [];
var poolLabel = [];
var poolFaded = [];
var poolUsed = 0;
var clipRect = null;
var cornerRx = -1;
var cornerRy = 0;
var rounded = [];
var svgHeight = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.height > 0 ?
	svg.viewBox.baseVal.height : parseFloat(svg.getAttribute('height')) || 0;

function isAncestor(a, f) {
	return a !== f && pre[a] <= pre[f] && pre[f] < pre[a] + size[a];
}

function inZoom(f) {
	return zoomed >= 0 && pre[f] >= pre[zoomed] && pre[f] < pre[zoomed] + size[zoomed];
}

/* Frames neither in the subtree of z nor its ancestors whose x interval
 * still overlaps z's visibly (only possible through rounding): per row, a
 * binary search for the frames that start left of z's right edge, then a
 * walk to the left while they reach into z's interval. */
function overlapping(z, r, out) {
	var left = x0[z];
	var right = x0[z] + w0[z];
	for (var d = 0; d < rows.length; d++) {
		var row = rows[d];
		var lo = 0;
		var hi = row.length;
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (x0[row[mid]] < right) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		for (var q = lo - 1, misses = 0; q >= 0 && misses < 4; q--) {
			var f = row[q];
			var over = (Math.min(right, x0[f] + w0[f]) - Math.max(left, x0[f])) * r;
			if (over <= 0.001) {
				misses++;
			} else if (f !== z && !isAncestor(f, z) && !isAncestor(z, f)) {
				out.push(f);
			}
		}
	}
}

function setMark(f, to) {
	var list = els[f].classList;
	if (mark[f] === PARENT) {
		list.remove('parent');
	} else if (mark[f] === HIDE) {
		list.remove('hide');
	}
	if (to === PARENT) {
		list.add('parent');
	} else if (to === HIDE) {
		list.add('hide');
	}
	mark[f] = to;
}

function setPoolLabel(k, x, y, label, faded) {
	var t = pool[k];
	if (!t) {
		t = document.createElementNS(SVG_NS, 'text');
		t.appendChild(document.createTextNode(''));
		zoomLabelLayer.appendChild(t);
		pool[k] = t;
		poolLabel[k] = '';
		poolFaded[k] = false;
	}
	if (poolX[k] !== x) {
		t.setAttribute('x', x);
		poolX[k] = x;
	}
	if (poolY[k] !== y) {
		t.setAttribute('y', y);
		poolY[k] = y;
	}
	if (poolLabel[k] !== label) {
		t.firstChild.nodeValue = label;
		poolLabel[k] = label;
	}
	if (poolFaded[k] !== faded) {
		t.classList.toggle('parent', faded);
		poolFaded[k] = faded;
	}
}

/* Rounded corners (a writer's rx) would be stretched by the zoom too. */
function cornerRadius() {
	if (cornerRx < 0) {
		cornerRx = 0;
		try {
			var style = window.getComputedStyle(rects[0]);
			cornerRx = parseFloat(style.getPropertyValue('rx')) || 0;
			cornerRy = parseFloat(style.getPropertyValue('ry'));
			cornerRy = isFinite(cornerRy) ? cornerRy : cornerRx;
		} catch (e) {
			/* no computed style: square corners assumed */
		}
	}
	return cornerRx;
}

function setCorners(list, r) {
	var q;
	for (q = 0; q < rounded.length; q++) {
		var rect = rects[rounded[q]];
		rect.style.removeProperty('rx');
		rect.style.removeProperty('ry');
		if (!rect.getAttribute('style')) {
			rect.removeAttribute('style');
		}
	}
	rounded = list;
	for (q = 0; q < list.length; q++) {
		rects[list[q]].style.setProperty('rx', (cornerRx / r) + 'px');
		rects[list[q]].style.setProperty('ry', cornerRy + 'px');
	}
}

/* z < 0: the unzoomed graph, exactly as written. */
function applyView(z) {
	var f, q, r, w, label;
	var marks = [];
	var labels = [];
	var inView = [];
	/* 1. what to mark and which labels to draw; measuring only reads */
	var exact = false;
	var e = 0;
	var moves = [];
	if (z >= 0) {
		r = fullWidth / w0[z];
		exact = r > EXACT_RATIO;
		e = exact ? xpad + fullWidth + 1 - r * minX : xpad - r * x0[z];
		for (f = parent[z]; f >= 0; f = parent[f]) {
			marks.push(f, PARENT);
			inView.push(f);
			label = labelOf(f, fullWidth);
			if (label !== '') {
				labels.push(fmt(xpad + 3), labelY[f], label, true);
			}
		}
		if (exact) {
			for (q = 0; q < inView.length; q++) {
				/* ancestors: 1 px beyond both ends of the area, then clipped */
				moves.push(inView[q], String((xpad - 1 - e) / r), String((fullWidth + 2) / r));
			}
		} else {
			var hidden = [];
			overlapping(z, r, hidden);
			for (q = 0; q < hidden.length; q++) {
				marks.push(hidden[q], HIDE);
			}
		}
		for (q = pre[z]; q < pre[z] + size[z]; q++) {
			f = order[q];
			w = w0[f] * r;
			inView.push(f);
			if (exact) {
				moves.push(f, String((xpad + (x0[f] - x0[z]) * r - e) / r), wStr[f]);
			}
			if (w >= 3 * charWidth) {
				label = labelOf(f, w);
				if (label !== '') {
					labels.push(fmt(xpad + (x0[f] - x0[z]) * r + 3), labelY[f], label, false);
				}
			}
		}
	}
	/* 2. writes: classes of the few marked frames */
	for (q = 0; q < marked.length; q++) {
		mark[marked[q]] |= STALE;
	}
	var now = [];
	for (q = 0; q < marks.length; q += 2) {
		f = marks[q];
		mark[f] &= ~STALE;
		if (mark[f] !== marks[q + 1]) {
			setMark(f, marks[q + 1]);
		}
		now.push(f);
	}
	for (q = 0; q < marked.length; q++) {
		f = marked[q];
		if (mark[f] & STALE) {
			mark[f] &= ~STALE;
			setMark(f, 0);
		}
	}
	marked = now;
	/* the transform and the clip */
	if (z >= 0) {
		if (!clipRect) {
			var defs = document.createElementNS(SVG_NS, 'defs');
			var clip = document.createElementNS(SVG_NS, 'clipPath');
			clipRect = document.createElementNS(SVG_NS, 'rect');
			clip.setAttribute('id', 'fg-clip');
			clipRect.setAttribute('y', '0');
			clipRect.setAttribute('height', String(svgHeight));
			clip.appendChild(clipRect);
			defs.appendChild(clip);
			framesGroup.parentNode.insertBefore(defs, framesGroup);
		}
		clipRect.setAttribute('x', String((xpad - e) / r));
		clipRect.setAttribute('width', String(fullWidth / r));
		framesGroup.setAttribute('transform', 'matrix(' + r + ',0,0,1,' + e + ',0)');
		framesGroup.setAttribute('clip-path', 'url(#fg-clip)');
		labelLayer.setAttribute('opacity', '0');
	} else {
		framesGroup.removeAttribute('transform');
		framesGroup.removeAttribute('clip-path');
		labelLayer.removeAttribute('opacity');
	}
	/* rects moved for precision, and those moved back */
	for (q = 0; q < rebased.length; q++) {
		mark[rebased[q]] |= STALE;
	}
	var nowRebased = [];
	for (q = 0; q < moves.length; q += 3) {
		f = moves[q];
		mark[f] &= ~STALE;
		rects[f].setAttribute('x', moves[q + 1]);
		rects[f].setAttribute('width', moves[q + 2]);
		nowRebased.push(f);
	}
	for (q = 0; q < rebased.length; q++) {
		f = rebased[q];
		if (mark[f] & STALE) {
			mark[f] &= ~STALE;
			rects[f].setAttribute('x', xStr[f]);
			rects[f].setAttribute('width', wStr[f]);
		}
	}
	rebased = nowRebased;
	/* the labels of the view */
	var used = 0;
	for (q = 0; q < labels.length; q += 4) {
		setPoolLabel(used++, labels[q], labels[q + 1], labels[q + 2], labels[q + 3]);
	}
	for (q = used; q < poolUsed; q++) {
		setPoolLabel(q, poolX[q], poolY[q], '', false);
	}
	poolUsed = used;
	if (N && cornerRadius() > 0) {
		setCorners(z >= 0 ? inView : [], r);
	}
}

/* ---- URL ----------------------------------------------------------------- */

/* history.replaceState costs milliseconds (a same-document navigation), so
 * changes are collected and written once, after the frame that shows the
 * new view (or after 200 ms where animation frames do not run, as in a
 * background tab). */
var urlChanges = null;

function flushUrl() {
	var changes = urlChanges;
	urlChanges = null;
	if (!changes) {
		return;
	}
	try {
		var url = new URL(window.location.href);
		Object.keys(changes).forEach(function (key) {
			if (changes[key] === null) {
				url.searchParams.delete(key);
			} else {
				url.searchParams.set(key, changes[key]);
			}
		});
		var query = url.searchParams.toString();
		url.search = query ? '?' + query : '';
		if (url.href !== window.location.href) {
			window.history.replaceState(window.history.state, '', url.href);
		}
	} catch (e) {
		/* file:// in some browsers, sandboxed frames: the view still works */
	}
}

function updateUrl(changes) {
	if (!urlChanges) {
		urlChanges = {};
		try {
			window.requestAnimationFrame(function () {
				window.setTimeout(flushUrl, 0);
			});
		} catch (e) {
			/* no animation frames: the timer below writes it */
		}
		window.setTimeout(flushUrl, 200);
	}
	Object.keys(changes).forEach(function (key) {
		urlChanges[key] = changes[key];
	});
}

/* ---- zoom ---------------------------------------------------------------- */

function showElement(el, shown) {
	if (el) {
		el.classList.toggle('hide', !shown);
	}
}

/* The details of frame d (when d >= 0), which the caller shows next, are
 * measured first, while the document is still clean, so no layout is
 * forced between the writes. */
function resetZoom(d) {
	zoomed = -1;
	if (d >= 0) {
		detailsFor(d);
	}
	applyView(-1);
	showElement(unzoomEl, false);
	updateUrl({x: null, y: null});
}

function zoomTo(f) {
	if (f < 0 || f >= N) {
		return;
	}
	if (parent[f] < 0) {
		resetZoom(f);
		return;
	}
	zoomed = f;
	detailsFor(f);
	applyView(f);
	showElement(unzoomEl, true);
	updateUrl({x: xStr[f], y: yStr[f]});
}

/* ---- details line -------------------------------------------------------- */

/* Room for the details line: from its x to the image's right padding, or
 * to a gap before #matched (right-aligned on the same line) when that
 * shows something and is not to be covered. */
var measuredMatched = null;
var measuredMatchedWidth = 0;

function detailsRoom(besideMatched) {
	var left = detailsEl ? parseFloat(detailsEl.getAttribute('x')) : xpad;
	var right = svgWidth - xpad;
	var m = matchedEl ? matchedEl.textContent : '';
	if (besideMatched && m.trim() !== '') {
		if (m !== measuredMatched) {
			measuredMatchedWidth = textWidth(m);
			measuredMatched = m;
		}
		right -= measuredMatchedWidth + 2 * charWidth;
	}
	return right - (isFinite(left) ? left : xpad);
}

/* "NAMETYPE NAME INFO | self: ... | P% of zoom" in room px, where INFO is
 * the title after the name: samples, percentage and, for differential
 * graphs, the change (before, after and "only before/after" with
 * --diff-union). INFO is always shown whole. When the line does not fit,
 * the name is shortened to no less than DETAILS_NAME characters, then the
 * zoom share and the self samples go, then NAMETYPE, then the name
 * shrinks to "..". Widths are measured. null: not even that fits. */
var DETAILS_NAME = 20;

function detailsText(f, room) {
	var name = names[f];
	var info = titles[f].slice(name.length);
	var selfPart = ' | self: ' + formatCount(self[f]) + ' ' + countName + ' (' + pct(self[f], total) + ')';
	var share = zoomed >= 0 && inZoom(f) ? ' | ' + pct(count[f], count[zoomed]) + ' of zoom' : '';
	var prefix = nameType + ' ';
	var line = prefix + name + info + selfPart + share;
	if (textWidth(line) <= room) {
		return line;
	}
	var forms = [[prefix, info + selfPart + share, DETAILS_NAME], [prefix, info + selfPart, DETAILS_NAME],
		[prefix, info, DETAILS_NAME], ['', info, 1]];
	for (var q = 0; q < forms.length; q++) {
		var rest = room - textWidth(forms[q][0] + forms[q][1]);
		var short = rest > 0 ? fitText(name, rest) : '';
		if (short === name || (short !== '' && short.length - 2 >= Math.min(forms[q][2], name.length))) {
			return forms[q][0] + short + forms[q][1];
		}
	}
	return textWidth('..' + info) <= room ? '..' + info : null;
}

function setText(el, s) {
	if (el) {
		el.textContent = s;
	}
}

/* The frame whose details are shown, or -1. Where even the shortest form
 * does not fit beside #matched (narrow images, long search terms), the
 * details cover it: #matched is hidden (class fg-covered) meanwhile.
 * detailsFor() measures, and keeps the result for the same frame, zoom and
 * #matched text. */
var detailsFrame = -1;
var detailsKey = null;
var detailsValue = ' ';
var detailsCovers = false;

function detailsFor(f) {
	var key = f + ' ' + zoomed + ' ' + (matchedEl ? matchedEl.textContent : '');
	if (key !== detailsKey) {
		var s = detailsText(f, detailsRoom(true));
		detailsCovers = s === null;
		if (detailsCovers) {
			s = detailsText(f, detailsRoom(false));
			if (s === null) {
				s = '..' + titles[f].slice(names[f].length);
			}
		}
		detailsValue = s;
		detailsKey = key;
	}
}

function showDetails(f) {
	detailsFor(f);
	detailsFrame = f;
	setText(detailsEl, detailsValue);
	if (matchedEl) {
		matchedEl.classList.toggle('fg-covered', detailsCovers);
	}
}

function clearDetails() {
	if (focusShown && focused >= 0) {
		showDetails(focused);
		return;
	}
	detailsFrame = -1;
	setText(detailsEl, ' ');
	if (matchedEl) {
		matchedEl.classList.remove('fg-covered');
	}
}

/* #matched changed: the details line may have more or less room now. */
function setMatched(s) {
	setText(matchedEl, s);
	if (detailsFrame >= 0) {
		showDetails(detailsFrame);
	}
}

/* ---- keyboard focus ------------------------------------------------------ */

function setFocus(f, shown) {
	if (focused >= 0 && focusShown) {
		els[focused].classList.remove('focus');
	}
	focused = f;
	focusShown = shown && f >= 0;
	if (focusShown) {
		els[f].classList.add('focus');
		showDetails(f);
		try {
			rects[f].scrollIntoView({block: 'nearest', inline: 'nearest'});
		} catch (e) {
			/* older browsers: no scrolling */
		}
	}
}

/* On screen: in the zoomed subtree or one of its ancestors (or anything
 * drawn when not zoomed). */
function visible(f) {
	return f >= 0 && w0[f] > 0 && (zoomed < 0 || inZoom(f) || isAncestor(f, zoomed));
}

function rowNeighbour(f, step) {
	var row = rows[depth[f]];
	for (var q = rowPos[f] + step; q >= 0 && q < row.length; q += step) {
		if (visible(row[q])) {
			return row[q];
		}
	}
	return -1;
}

function firstVisibleChild(f) {
	var kids = childrenOf(f);
	for (var q = 0; q < kids.length; q++) {
		if (visible(kids[q])) {
			return kids[q];
		}
	}
	return -1;
}

function moveFocus(key) {
	var target;
	if (!focusShown || !visible(focused)) {
		setFocus(visible(focused) ? focused : zoomed >= 0 ? zoomed : root, true);
		return;
	}
	if (key === 'ArrowLeft') {
		target = rowNeighbour(focused, -1);
	} else if (key === 'ArrowRight') {
		target = rowNeighbour(focused, 1);
	} else if ((key === 'ArrowDown') !== inverted) {
		target = parent[focused];
	} else {
		target = firstVisibleChild(focused);
	}
	if (visible(target)) {
		setFocus(target, true);
	}
}

/* ---- search -------------------------------------------------------------- */

var ignoreCase = false;
var searchTerm = null;
var searchUntrusted = false; /* searchTerm came with the link (?s=) */
var searchRe = null;
var matches = [];
var highlighted = [];
var matchPos = -1;
var prevEl = null;
var nextEl = null;
var clearEl = null;

/*
 * A pattern that can backtrack for hours ("(.|.)*!"): a quantified group,
 * a back-reference, many unbounded quantifiers, or a very long pattern.
 * JavaScript cannot interrupt a regular expression, so a search that
 * comes with a link (?s=) is matched as plain text when it looks like one.
 */
function mayBacktrack(term) {
	var plain = term.replace(/\\[^0-9k]/g, 'x');
	var unbounded = (plain.match(/[*+]|\{[0-9]+,\}/g) || []).length;
	return term.length > 200 || /\)[*+{?]/.test(plain) || /\\([1-9]|k<)/.test(term) ||
		unbounded > 2;
}

function toRegExp(term, untrusted) {
	var flags = ignoreCase ? 'i' : '';
	var literal = term.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');
	if (untrusted && mayBacktrack(term)) {
		return new RegExp(literal, flags);
	}
	try {
		return new RegExp(term, flags);
	} catch (e) {
		return new RegExp(literal, flags);
	}
}

function unhighlight() {
	for (var q = 0; q < highlighted.length; q++) {
		rects[highlighted[q]].removeAttribute('fill');
	}
	highlighted = [];
}

function matchedText() {
	var source = searchRe.source;
	if (source.length > 40) {
		source = source.slice(0, 38) + '..';
	}
	var sum = 0;
	var cover = -1;
	for (var q = 0; q < N; q++) {
		var f = order[q];
		if (q >= cover && searchRe.test(names[f])) {
			sum += count[f];
			cover = q + size[f];
		}
	}
	var p = total > 0 ? 100 * sum / total : 0;
	var where = matchPos >= 0 ? (matchPos + 1) + ' of ' + matches.length : String(matches.length);
	return 'Matched: ' + (p === 100 ? '100' : p.toFixed(1)) + '% for /' + source + '/' +
		(ignoreCase ? 'i' : '') + ' (' + where + (matches.length === 1 ? ' frame)' : ' frames)');
}

function runSearch(term, untrusted) {
	unhighlight();
	searchTerm = term;
	searchUntrusted = !!untrusted;
	searchRe = toRegExp(term, untrusted);
	matches = [];
	matchPos = -1;
	for (var q = 0; q < N; q++) {
		var f = order[q];
		if (searchRe.test(names[f])) {
			matches.push(f);
		}
	}
	for (q = 0; q < matches.length; q++) {
		rects[matches[q]].setAttribute('fill', SEARCH_FILL);
	}
	highlighted = matches.slice();
	setMatched(matchedText());
	if (searchEl) {
		searchEl.classList.add('show');
	}
	showElement(clearEl, true);
	showElement(prevEl, matches.length > 0);
	showElement(nextEl, matches.length > 0);
	updateUrl({s: term});
}

function clearSearch() {
	unhighlight();
	searchTerm = null;
	searchRe = null;
	matches = [];
	matchPos = -1;
	setMatched(' ');
	if (searchEl) {
		searchEl.classList.remove('show');
	}
	showElement(clearEl, false);
	showElement(prevEl, false);
	showElement(nextEl, false);
	updateUrl({s: null});
}

function promptSearch() {
	var term;
	var message = 'Enter a search term (regexp allowed, eg: ^ext4_)' +
		(ignoreCase ? ', ignoring case' : '') + '\nPress Ctrl-i to toggle case sensitivity';
	try {
		term = window.prompt(message, searchTerm === null ? '' : searchTerm);
	} catch (e) {
		return;
	}
	if (term === null || term === undefined) {
		return;
	}
	if (term === '') {
		clearSearch();
	} else {
		runSearch(term);
	}
}

function toggleIgnoreCase() {
	ignoreCase = !ignoreCase;
	if (ignoreCaseEl) {
		ignoreCaseEl.classList.toggle('show', ignoreCase);
	}
	if (searchTerm !== null) {
		runSearch(searchTerm, searchUntrusted);
	}
}

/* Next (step 1) or previous (-1) match in pre-order from the focus. */
function gotoMatch(step) {
	if (!matches.length) {
		return;
	}
	var from = focused >= 0 ? pre[focused] : step > 0 ? -1 : N;
	var q = -1;
	var m;
	if (step > 0) {
		for (m = 0; m < matches.length && q < 0; m++) {
			if (pre[matches[m]] > from) {
				q = m;
			}
		}
		q = q < 0 ? 0 : q;
	} else {
		for (m = matches.length - 1; m >= 0 && q < 0; m--) {
			if (pre[matches[m]] < from) {
				q = m;
			}
		}
		q = q < 0 ? matches.length - 1 : q;
	}
	matchPos = q;
	setText(matchedEl, matchedText());
	zoomTo(matches[q]);
	setFocus(matches[q], true);
}

/* ---- controls created here: previous/next match and clear search ---------- */

function makeButton(id, label, tip, x, y, action) {
	var t = document.createElementNS(SVG_NS, 'text');
	var title = document.createElementNS(SVG_NS, 'title');
	t.setAttribute('id', id);
	t.setAttribute('class', 'fg-button hide');
	t.setAttribute('x', fmt(x));
	t.setAttribute('y', y);
	title.textContent = tip;
	t.appendChild(title);
	t.appendChild(document.createTextNode(label));
	t.addEventListener('click', function (e) {
		e.preventDefault();
		action();
	});
	svg.insertBefore(t, framesGroup);
	return t;
}

if (searchEl) {
	var sx = parseFloat(searchEl.getAttribute('x')) || 0;
	var sy = searchEl.getAttribute('y') || String(2 * fontSize);
	var sw = 6 * charWidth;
	try {
		sw = searchEl.getComputedTextLength() || sw;
	} catch (e) {
		/* keep the estimate */
	}
	prevEl = makeButton('prev-match', '\u25C0', 'Previous match (N)', sx - 3 * fontSize, sy, function () { gotoMatch(-1); });
	nextEl = makeButton('next-match', '\u25B6', 'Next match (n)', sx - 1.6 * fontSize, sy, function () { gotoMatch(1); });
	clearEl = makeButton('clear-search', '\u00D7', 'Clear search', sx + sw + fontSize / 2, sy, clearSearch);
}
if (matchedEl) {
	/* Right-aligned, so a long "Matched: ... for /term/" stays inside. */
	matchedEl.setAttribute('x', fmt(svgWidth - xpad));
	matchedEl.setAttribute('text-anchor', 'end');
}

/* ---- events -------------------------------------------------------------- */

function frameOf(node) {
	for (; node && node !== framesGroup; node = node.parentNode) {
		var f = indexOf.get(node);
		if (f !== undefined) {
			return f;
		}
	}
	return -1;
}

framesGroup.addEventListener('mouseover', function (e) {
	var f = frameOf(e.target);
	if (f >= 0) {
		showDetails(f);
	}
});
framesGroup.addEventListener('mouseout', function (e) {
	var f = frameOf(e.target);
	if (f >= 0 && frameOf(e.relatedTarget) !== f) {
		clearDetails();
	}
});
framesGroup.addEventListener('click', function (e) {
	var f = frameOf(e.target);
	if (f < 0 || e.button !== 0) {
		return;
	}
	if (isLink[f]) {
		if (!e.altKey) {
			return;
		}
		e.preventDefault();
	}
	setFocus(f, false);
	zoomTo(f);
	showDetails(f);
});
if (unzoomEl) {
	unzoomEl.addEventListener('click', function () {
		resetZoom(-1);
	});
}
if (searchEl) {
	searchEl.addEventListener('click', promptSearch);
}
if (ignoreCaseEl) {
	ignoreCaseEl.addEventListener('click', toggleIgnoreCase);
}

document.addEventListener('keydown', function (e) {
	var key = e.key;
	var ctrl = e.ctrlKey || e.metaKey;
	var letter = key && key.length === 1 ? key.toLowerCase() : '';
	if (ctrl && !e.altKey && (letter === 'f' || e.keyCode === 70)) {
		promptSearch();
	} else if (ctrl && !e.altKey && (letter === 'i' || e.keyCode === 73)) {
		toggleIgnoreCase();
	} else if (ctrl || e.altKey) {
		return;
	} else if (key === 'F3' || e.keyCode === 114 || key === '/') {
		promptSearch();
	} else if (key === 'Escape' || key === 'Esc') {
		resetZoom(focusShown ? focused : -1);
	} else if (key === 'n') {
		gotoMatch(1);
	} else if (key === 'N') {
		gotoMatch(-1);
	} else if (key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight') {
		moveFocus(key);
	} else if (key === 'Enter' && focused >= 0 && visible(focused)) {
		zoomTo(focused);
		setFocus(focused, true);
	} else {
		return;
	}
	e.preventDefault();
});

/* ---- state from the URL -------------------------------------------------- */

(function restore() {
	var params;
	try {
		params = new URLSearchParams(window.location.search);
	} catch (e) {
		return;
	}
	var x = parseFloat(params.get('x'));
	var y = parseFloat(params.get('y'));
	if (isFinite(x) && isFinite(y)) {
		var best = -1;
		for (var f = 0; f < N; f++) {
			if (Math.abs(x0[f] - x) < EPS && Math.abs(y0[f] - y) < EPS && (best < 0 || w0[f] > w0[best])) {
				best = f;
			}
		}
		if (best >= 0) {
			zoomTo(best);
			setFocus(best, false);
		}
	}
	var s = params.get('s');
	if (s) {
		runSearch(s, true);
	}
})();
})();
