/*
 * draw.js - the frames the writer drew: their index, labels, zoom, the
 * details line and the keyboard focus.
 *
 * Design. Once (ensureIndex: on the first event that needs it, or when the
 * page is first idle), every frame is read into flat arrays: name, count
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
 */

/* ---- the frame table -------------------------------------------------- */

var N, els, rects, texts, names, titles, xStr, yStr, wStr, x0, y0, w0, count, isLink;
var indexOf, depth, rows, rowPos, parent, firstChild, root, total, self, size, pre, order;
var fittedWidth, fitted, minX, mark;
var indexed = false;

/* Builds the index (and moves the labels, below) once, on the first event
 * that needs it or when the page is first idle: the page shows and answers
 * before the 20,000 frames of a large graph are read. */
function ensureIndex() {
	if (!indexed) {
		indexed = true;
		buildIndex();
		markTime('fg-index');
	}
}

/* A performance mark for bench/views.mjs. */
function markTime(name) {
	if (window.performance && performance.mark) {
		performance.mark(name);
	}
}

function buildIndex() {
	var rectList = framesGroup.getElementsByTagNameNS(SVG_NS, 'rect');
	N = rectList.length;
	els = new Array(N);
	rects = new Array(N);
	texts = new Array(N);
	names = new Array(N);
	titles = new Array(N);
	xStr = new Array(N);
	yStr = new Array(N);
	wStr = new Array(N);
	x0 = new Float64Array(N);
	y0 = new Float64Array(N);
	w0 = new Float64Array(N);
	count = new Float64Array(N);
	isLink = new Uint8Array(N);
	indexOf = new Map();

	var i, j, k;
	for (i = 0; i < N; i++) {
		readFrame(i, rectList[i]);
	}

	/* Rows: one per distinct y, depth 0 at the bottom (top when inverted). */
	var rowKeys = [];
	var rowOfKey = new Map();
	depth = new Int32Array(N);
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
	rows = [];
	for (i = 0; i < rowKeys.length; i++) {
		rows.push([]);
	}
	for (i = 0; i < N; i++) {
		depth[i] = rowOfKey.get(Math.round(y0[i] * 10));
		rows[depth[i]].push(i);
	}
	rowPos = new Int32Array(N);
	for (var d = 0; d < rows.length; d++) {
		rows[d].sort(byX);
		for (j = 0; j < rows[d].length; j++) {
			rowPos[rows[d][j]] = j;
		}
	}

	/* The parent is the last frame of the row below starting at or before the
	 * child whose interval still holds the child. */
	parent = new Int32Array(N).fill(-1);
	firstChild = new Int32Array(N).fill(-1);
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
	root = -1;
	total = 0;
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
	self = Float64Array.from(count);
	size = new Int32Array(N).fill(1);
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
	pre = new Int32Array(N);
	order = new Int32Array(N);
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

	/* ---- layers -------------------------------------------------------------- */

	/* A zoom scales #frames horizontally, and text under a scale would be
	 * stretched (and re-shaped by the browser at every zoom), so the labels
	 * leave the frames: the writer's labels move, once, to #fg-labels, which
	 * stays unscaled and is hidden while zoomed; the labels of a zoom are drawn
	 * in #fg-zoom-labels from a pool of <text> elements. Both follow #frames. */
	for (i = 0; i < N; i++) {
		if (texts[i]) {
			labelLayer.appendChild(texts[i]);
		}
	}
	framesGroup.parentNode.insertBefore(zoomLabelLayer, framesGroup.nextSibling);
	framesGroup.parentNode.insertBefore(labelLayer, zoomLabelLayer);
	fittedWidth = new Float64Array(N).fill(-1);
	fitted = new Array(N);
	minX = Infinity;
	for (i = 0; i < N; i++) {
		minX = Math.min(minX, x0[i]);
	}
	mark = new Uint8Array(N);
}

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
var titleTail = ' ' + countName + ', ';
function splitTitle(t) {
	for (var p = t.lastIndexOf(' ('); p >= 0; p = p > 0 ? t.lastIndexOf(' (', p - 1) : -1) {
		var m = /^[0-9][0-9,]*(\.[0-9]+)?/.exec(t.slice(p + 2));
		if (m && t.startsWith(titleTail, p + 2 + m[0].length)) {
			return { at: p, number: m };
		}
	}
	p = t.lastIndexOf(' (');
	return { at: p, number: p >= 0 ? /^[0-9][0-9,]*(\.[0-9]+)?/.exec(t.slice(p + 2)) : null };
}

function readFrame(i, rect) {
	var el = rect.parentNode;
	var title = el.firstElementChild;
	if (!title || title.localName !== 'title') {
		title = childByName(el, 'title');
	}
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

function byX(a, b) {
	return x0[a] - x0[b] || w0[a] - w0[b];
}

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

/* The y of frame f's label: the writer's, or where the writer puts one. */
function labelY(f) {
	return texts[f] ? texts[f].getAttribute('y') : fmt(y0[f] + (frameHeight - 1) / 2 + 3);
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

/* ---- layers ---- (filled by buildIndex) */

var labelLayer = document.createElementNS(SVG_NS, 'g');
var zoomLabelLayer = document.createElementNS(SVG_NS, 'g');
labelLayer.setAttribute('id', 'fg-labels');
zoomLabelLayer.setAttribute('id', 'fg-zoom-labels');

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
		return estimateLabel(s, avail + 4);
	}
}

/* The writer's label rule for a box w px wide: as many characters as fit
 * at fontWidth each, cut with "..". */
function estimateLabel(name, w) {
	var chars = Math.floor(w / charWidth);
	if (name.length <= chars) {
		return name;
	}
	chars -= 2;
	if (chars > 0 && isHighSurrogate(name, chars - 1)) {
		chars--;
	}
	return chars > 0 ? name.slice(0, chars) + '..' : '';
}

/* The index (in map) of node or of its nearest ancestor below stop, or -1:
 * which frame an event happened on. */
function indexedAncestor(node, stop, map) {
	for (; node && node !== stop; node = node.parentNode) {
		var k = map.get(node);
		if (k !== undefined) {
			return k;
		}
	}
	return -1;
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
var rebased = [];
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
				labels.push(fmt(xpad + 3), labelY(f), label, true);
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
		/* (the corners of a frame at most 2 rx wide when zoomed are
		 * clamped to half its width, stretched or not: it needs no style
		 * of its own; most frames of a zoom to 200,000 are so narrow, and
		 * a style each cost seconds) */
		var rounding = 2 * cornerRadius();
		for (q = pre[z]; q < pre[z] + size[z]; q++) {
			f = order[q];
			w = w0[f] * r;
			if (w > rounding) {
				inView.push(f);
			}
			if (exact) {
				moves.push(f, String((xpad + (x0[f] - x0[z]) * r - e) / r), wStr[f]);
			}
			if (w >= 3 * charWidth) {
				label = labelOf(f, w);
				if (label !== '') {
					labels.push(fmt(xpad + (x0[f] - x0[z]) * r + 3), labelY(f), label, false);
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
	/* a zoom drawn by views.js (revealing, or in a drawn view) ends too */
	if (view.zoom[0] >= 0 || view.zoom[1] >= 0 || viewShown) {
		view.zoom = [-1, -1];
		view.revealFrame = -1;
		renderView();
	}
}

function zoomTo(f) {
	/* (a frame drawn 0 px wide has no width to fill the graph with) */
	if (f < 0 || f >= N || !(w0[f] > 0)) {
		return;
	}
	if (parent[f] < 0) {
		resetZoom(f);
		return;
	}
	if (revealZoom(f)) {
		/* drawn by views.js: frames --minwidth left out appear */
		if (zoomed >= 0) {
			zoomed = -1;
			applyView(-1);
		}
		updateUrl({x: xStr[f], y: yStr[f]});
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
	var own = exactSelf(f);
	return detailsLine(names[f], titles[f].slice(names[f].length),
		' | self: ' + formatCount(own) + ' ' + countName + ' (' + pct(own, total) + ')',
		zoomed >= 0 && inZoom(f) ? ' | ' + pct(count[f], count[zoomed]) + ' of zoom' : '', room);
}

/* The details line of a frame named name, its title's INFO, self part and
 * zoom share ('' for none) in room px, shortened as detailsText says; the
 * drawn views' frames too (views.js). */
function detailsLine(name, info, selfPart, share, room) {
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
		/* (n, N or Enter zoomed into a drawn view, which hides f: its
		 * zoomed frame takes the focus, in sight; scrolling to f, moved out
		 * of the picture, went to the top of the page) */
		try {
			if (viewShown) {
				setViewFocus(-1);
				moveViewFocus();
			}
			(viewShown ? viewGroup.children[viewFocus] : rects[f]).scrollIntoView({block: 'nearest', inline: 'nearest'});
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

