/*
 * views.js - the views the viewer draws itself, from the view data.
 *
 * The writer's frames show the whole graph. Everything else is drawn here
 * into <g id="fg-view">, which replaces #frames while it shows (#frames and
 * its labels get class "hide"): the graph with frames hidden by a regex,
 * with recursion collapsed or ordered by weight; the function view of one
 * function (its callees merged, rooted at it, drawn above; its callers
 * merged, drawn from it outwards, below); and a zoom that reveals frames
 * the writer left out as narrower than --minwidth. Each drawn frame keeps
 * the frame contract: a <g> holding "NAME (N COUNTNAME, P%)" in a <title>,
 * a <rect> and, when wide enough, a <text> label. Own samples sit at a
 * frame's left edge, children follow in bytewise name order (heaviest
 * first with order=weight), as the writer lays out.
 *
 * A zoom in a drawn view draws again: the zoomed frame spans the width,
 * its ancestors are drawn full width and faded, and every frame at least
 * --minwidth wide at that scale appears.
 *
 * Speed. A frame costs the browser far more than the JavaScript that lays
 * it out (parsing, style, layout, paint: about 40 us each here), so a view
 * of 20,000 frames cannot be drawn in one frame's time. Frames are drawn
 * widest first, as strings of markup parsed at once: the first DRAW_FIRST
 * (every frame of a small view, and of a large one all that are more than
 * a few pixels wide) before the event returns, the rest in batches of
 * DRAW_BATCH, each in a task after the frame that shows the one before,
 * while #fg-view has aria-busy="true". Between
 * batches the page answers input; a new view cancels the batches left.
 * The writer's frames are hidden by class fg-behind (transparent, and
 * moved out of the picture, so not hit either): one style change on one
 * element. display:none would make the browser tear down and rebuild the
 * layout of all of them at every toggle, and visibility (inherited)
 * repaints every one of them: hundreds of ms each.
 */

var view = {
	fn: null,          /* name of the function shown, or null */
	hide: null,        /* the hide term (a regex, or literal text when invalid) */
	rec: false,        /* recursion collapsed */
	weight: false,     /* siblings heaviest first */
	zoom: [-1, -1],    /* zoomed node per section (0: graph or callees, 1: callers) */
	revealFrame: -1    /* the writer's frame a revealing zoom started from */
};
var viewGroup = null;
var viewInfoEl = null;
var viewShown = false;
var viewFrames = [];       /* per drawn frame: [tree, node, section, faded] */
var viewIndex = new Map(); /* drawn <g> -> its index in viewFrames */
var viewCache = {key: null, base: null, fnKey: null, callees: null, callers: null};
var DRAW_FIRST = 1200;
var DRAW_BATCH = 3000;
var drawQueue = null;      /* frames [tree, f, y, section] not drawn yet */
var drawGen = 0;           /* a new view or leaving one cancels the batches */
var graphTop = NaN;
var origDetailsY = detailsEl ? detailsEl.getAttribute('y') : null;
var origMatchedY = matchedEl ? matchedEl.getAttribute('y') : null;
var origHeight = svgHeight;
var colourOf = null;

function viewWanted() {
	return view.fn !== null || view.hide !== null || view.rec || view.weight || view.zoom[0] >= 0;
}

/* The base tree for the current hide term and recursion toggle, cached. */
function currentBase() {
	var d = loadData();
	if (!d) {
		return null;
	}
	var key = (view.hide === null ? '' : 'h' + view.hide) + '\n' + (view.rec ? 1 : 0);
	if (viewCache.key !== key) {
		viewCache.key = key;
		viewCache.base = baseTree(d, view.hide === null ? null : patternRegExp(view.hide, ''), view.rec);
		viewCache.fnKey = null;
	}
	return viewCache.base;
}

function fnTrees(base, nm) {
	if (viewCache.fnKey !== nm) {
		viewCache.fnKey = nm;
		viewCache.callees = calleeTree(base, nm);
		viewCache.callers = callerTree(base, nm);
	}
	return [viewCache.callees, viewCache.callers];
}

/* The writer's colour of a name where it drew one, else one of the hot
 * palette's colours from a hash of the name. */
function fillOf(name) {
	if (!colourOf) {
		colourOf = new Map();
		for (var q = 0; q < N; q++) {
			var g = els[q].parentNode;
			var fill = g && g.getAttribute ? g.getAttribute('fill') : null;
			if (fill && !colourOf.has(names[q])) {
				colourOf.set(names[q], fill);
			}
		}
	}
	var c = colourOf.get(name);
	if (c === undefined) {
		var h = 2166136261;
		for (var k = 0; k < name.length; k++) {
			h = Math.imul(h ^ name.charCodeAt(k), 16777619) >>> 0;
		}
		c = 'rgb(' + (205 + h % 50) + ',' + ((h >>> 8) % 230) + ',' + ((h >>> 16) % 55) + ')';
		colourOf.set(name, c);
	}
	return c;
}

/* Text from the URL (a function, a hide term) to show: characters XML
 * does not allow, lone surrogates and the bidi controls (which would
 * reorder the rest of the line, as the writer replaces them in names)
 * become U+FFFD. */
function plainText(s) {
	return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(^|[^\ud800-\udbff])[\udc00-\udfff]/g,
		function (m, before) { return (before || '') + '\ufffd'; });
}

/* Text for markup parsed as XML (innerHTML in an SVG document): characters
 * XML forbids (from a link's ?s= or ?hide=) become U+FFFD (plainText). */
function escapeXml(s) {
	return plainText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/* Titles are "NAME (N COUNTNAME, P%)" as the writer's: N is the count
 * times --factor, P its share of the whole graph (exact: from the count,
 * whatever --factor or decimals). */
var countMarkup = escapeXml(countName);

/* Lays out one section of a view into the flat layout L (per frame: its
 * section, node, depth, x, width and whether it is a faded ancestor; flat
 * arrays, not an object per frame): the path from the root to the zoomed
 * node, full width, then the zoomed node's subtree scaled to the width.
 * Returns the depth reached. */
function layoutSection(L, sec, t, z, byWeight, d, minPx) {
	var path = [];
	for (var a = t.parent[z]; a >= 0; a = t.parent[a]) {
		path.push(a);
	}
	path.reverse();
	var q;
	function put(node, depthHere, x, w, faded) {
		L.sec.push(sec);
		L.node.push(node);
		L.depth.push(depthHere);
		L.x.push(x);
		L.w.push(w);
		L.faded.push(faded);
	}
	for (q = 0; q < path.length; q++) {
		put(path[q], q, xpad, fullWidth, 1);
	}
	/* (the root of the graph spans --total when that is larger: as the
	 * writer draws it) */
	var whole = z === 0 && t.name[0] === 0 ? Math.max(t.total[0], d.span) : t.total[z];
	var scale = whole > 0 ? fullWidth / whole : 0;
	var maxDepth = path.length;
	var stack = [z, path.length, xpad];
	var pending = [];
	while (stack.length) {
		var x = stack.pop();
		var depthHere = stack.pop();
		var node = stack.pop();
		put(node, depthHere, x, t.total[node] * scale, 0);
		if (depthHere > maxDepth) {
			maxDepth = depthHere;
		}
		var kids = sortedKids(t, node, byWeight, d.names);
		var at = x + t.self[node] * scale;
		pending.length = 0;
		for (var k = 0; k < kids.length; k++) {
			var cw = t.total[kids[k]] * scale;
			if (cw >= minPx && cw > 0) {
				pending.push(kids[k], at);
			}
			at += cw;
		}
		for (k = pending.length - 2; k >= 0; k -= 2) {
			stack.push(pending[k], depthHere + 1, pending[k + 1]);
		}
	}
	return maxDepth;
}

/* Per name id: the escaped name and its fill, computed once. */
var nameMarkup = [];
var nameFill = [];

/* Frame i of layout L as markup, added to parts and to viewFrames. */
function frameMarkup(parts, L, i, d) {
	var section = L.sec[i];
	var t = L.trees[section];
	var node = L.node[i];
	var faded = L.faded[i] === 1;
	var y = L.y[i];
	var isRoot = node === 0 && t.name[0] === 0;
	var id = isRoot ? -1 : t.name[node];
	var name = isRoot ? 'all' : d.names[id];
	var n = isRoot ? d.span : t.total[node];
	if (!isRoot && nameFill[id] === undefined) {
		/* (Escaped: the writer's fill, read back decoded, is text a
		 * palette.map supplies, and goes into markup here.) */
		nameFill[id] = escapeXml(fillOf(name));
		nameMarkup[id] = escapeXml(name);
	}
	var fill = isRoot ? escapeXml(fillOf(name)) : searchRe && searchRe.test(name) ? SEARCH_FILL : nameFill[id];
	var x = Math.round(L.x[i] * 10) / 10;
	var w = Math.round((L.x[i] + L.w[i]) * 10) / 10 - x;
	parts.push('<g', faded ? ' class="parent"' : '', '><title>', isRoot ? name : nameMarkup[id], ' (',
		formatCount(shownCount(n * d.factor)), ' ', countMarkup, ', ', pct(n, d.span), ')</title><rect height="', fmt(frameHeight - 1), '" x="', fmt(x), '" y="', fmt(y),
		'" width="', fmt(w), '" fill="', fill, '"/>');
	var label = L.w[i] >= 3 * charWidth ? estimateLabel(name, L.w[i]) : '';
	if (label !== '') {
		parts.push('<text x="', fmt(x + 3), '" y="', fmt(y + (frameHeight - 1) / 2 + 3), '">',
			escapeXml(label), '</text>');
	}
	parts.push('</g>');
	viewFrames.push([t, node, section, faded, x, y, w]);
}

/* Markup of frames [from, to) of the queue {L, order} (widest first). */
function queueMarkup(queue, from, to, d) {
	var parts = [];
	for (var q = from; q < to; q++) {
		frameMarkup(parts, queue.L, queue.order[q], d);
	}
	return parts.join('');
}

/* Draws the next batch of the queue, and schedules the one after. */
function drawBatch(gen) {
	if (gen !== drawGen || !drawQueue) {
		return;
	}
	var from = viewFrames.length;
	var to = Math.min(drawQueue.order.length, from + DRAW_BATCH);
	appendViewMarkup(queueMarkup(drawQueue, from, to, loadData()), from);
	scheduleBatches();
}

function scheduleBatches() {
	if (drawQueue && viewFrames.length < drawQueue.order.length) {
		var gen = drawGen;
		viewGroup.setAttribute('aria-busy', 'true');
		/* after the frame that shows what is drawn so far */
		afterFrame(function () { drawBatch(gen); });
	} else {
		drawQueue = null;
		viewGroup.removeAttribute('aria-busy');
	}
}

/* Hides (or shows again) the writer's frames and their labels. */
function showWriterFrames(shown) {
	[framesGroup, labelLayer, zoomLabelLayer].forEach(function (el) {
		el.classList.toggle('fg-behind', !shown);
	});
}

function ensureViewLayer() {
	if (viewGroup) {
		return;
	}
	viewGroup = document.createElementNS(SVG_NS, 'g');
	viewGroup.setAttribute('id', 'fg-view');
	framesGroup.parentNode.insertBefore(viewGroup, zoomLabelLayer.nextSibling);
	viewInfoEl = document.createElementNS(SVG_NS, 'text');
	viewInfoEl.setAttribute('id', 'fg-view-info');
	viewInfoEl.setAttribute('class', 'fg-info');
	viewInfoEl.setAttribute('x', fmt(xpad));
	viewInfoEl.setAttribute('y', fmt(3 * fontSize - 2));
	svg.insertBefore(viewInfoEl, framesGroup);
	viewGroup.addEventListener('mouseover', function (e) {
		var k = viewFrameOf(e.target);
		viewHovered = k;
		if (k >= 0) {
			setText(detailsEl, viewDetails(k));
		}
	});
	viewGroup.addEventListener('mouseout', function () {
		viewHovered = -1;
		setText(detailsEl, ' ');
	});
	viewGroup.addEventListener('click', function (e) {
		var k = viewFrameOf(e.target);
		if (k < 0 || e.button !== 0) {
			return;
		}
		if (e.shiftKey) {
			openFunction(viewName(k));
			return;
		}
		zoomView(k);
	});
}

function viewFrameOf(node) {
	return indexedAncestor(node, viewGroup, viewIndex);
}

/* The function drawn view frame k shows; null for the root ("all" is no
 * function). */
function viewName(k) {
	var f = viewFrames[k];
	var d = loadData();
	return f[1] === 0 && f[0].name[0] === 0 ? null : d.names[f[0].name[f[1]]];
}

function viewTitle(k) {
	var el = viewGroup.children[k];
	var title = el ? childByName(el, 'title') : null;
	return title ? title.textContent : '';
}

/* The details line of drawn frame k, as the writer's frames' (detailsLine):
 * its title, self samples and, when its section is zoomed and k is in the
 * zoom, its share of the zoom. */
function viewDetails(k) {
	var f = viewFrames[k];
	var d = loadData();
	var t = f[0], node = f[1], z = view.zoom[f[2]];
	var isRoot = node === 0 && t.name[0] === 0;
	/* (the root's own: what --total adds beyond the sum too) */
	var own = t.self[node] + (isRoot ? Math.max(d.span - t.total[0], 0) : 0);
	var name = isRoot ? 'all' : d.names[t.name[node]];
	var info = viewTitle(k).slice(name.length);
	var line = detailsLine(name, info,
		' | self: ' + formatCount(own * d.factor) + ' ' + countName + ' (' + pct(own, d.span) + ')',
		z >= 0 && !f[3] && t.total[z] > 0 ? ' | ' + pct(t.total[node], t.total[z]) + ' of zoom' : '',
		detailsRoom(true));
	return line !== null ? line : '..' + info;
}

/* A click in a view: zoom to the frame, or out to a faded ancestor. When
 * only a revealing zoom kept the view up, zooming out to the root leaves
 * it for the writer's frames. */
function zoomView(k) {
	var f = viewFrames[k];
	var node = f[1];
	if (node === 0) {
		node = -1;
	}
	view.zoom[f[2]] = node;
	if (view.revealFrame >= 0 && !viewWanted()) {
		resetZoom(-1);
		return;
	}
	renderView();
}

/* Shows or leaves the drawn view for the current state. */
function renderView() {
	if (!viewWanted()) {
		leaveView();
		return;
	}
	var d = loadData();
	var base = currentBase();
	if (!d || !base) {
		setViewInfo(NO_DATA);
		return;
	}
	ensureViewLayer();
	var minPx = d.span > 0 ? Math.max(d.minwidth * fullWidth / d.span, 0) : 0;
	var q;
	if (isNaN(graphTop)) {
		graphTop = Infinity;
		for (q = 0; q < N; q++) {
			graphTop = Math.min(graphTop, y0[q] - (inverted ? 0 : 1));
		}
		if (!isFinite(graphTop)) {
			graphTop = 3 * fontSize;
		}
	}
	var ypad2 = 2 * fontSize + 10;
	var L = {sec: [], node: [], depth: [], x: [], w: [], faded: [], y: [], trees: []};
	var depths = [];
	var info;
	var nm = view.fn === null ? undefined : d.nameIndex.get(view.fn);
	var fn = view.fn === null ? '' : plainText(view.fn); /* (to show) */
	/* (a function the hide term hides has no frames left to show) */
	var hidden = nm !== undefined && view.hide !== null && fnTrees(base, nm)[0].total[0] === 0;
	if (view.fn !== null && nm !== undefined && !hidden) {
		var trees = fnTrees(base, nm);
		L.trees = trees;
		depths.push(layoutSection(L, 0, trees[0], Math.max(view.zoom[0], 0), view.weight, d, minPx));
		depths.push(layoutSection(L, 1, trees[1], Math.max(view.zoom[1], 0), view.weight, d, minPx));
		info = 'Function view of ' + fn + ': callees above, callers below (' +
			formatCount(shownCount(trees[0].total[0] * d.factor)) + ' ' + countName + ')';
	} else {
		var z = view.zoom[0] >= 0 && view.zoom[0] < base.n ? view.zoom[0] : 0;
		L.trees = [base];
		depths.push(layoutSection(L, 0, base, z, view.weight, d, minPx));
		info = view.fn === null ? '' : hidden ? fn + ' is hidden' : d.otherAll > 0 ?
			fn + ' is not in the view data: the budget may have left it in "other"' :
			'No function named ' + fn;
	}
	var extras = [];
	if (view.hide !== null) {
		extras.push('hiding /' + plainText(view.hide) + '/');
	}
	if (view.rec) {
		extras.push('recursion collapsed');
	}
	if (view.weight) {
		extras.push('ordered by weight');
	}
	if (d.otherAll > 0) {
		extras.push(formatCount(shownCount(d.otherAll * d.factor)) + ' ' + countName +
			' in "other" (left out by the view data budget)');
	}
	info = [info].concat(extras).filter(function (s) { return s !== ''; }).join('; ');
	/* rows: one section, or callees, a gap row and callers */
	var rowsNeeded = depths.length === 1 ? depths[0] + 1 : depths[0] + depths[1] + 3;
	var height = Math.max(origHeight, graphTop + rowsNeeded * frameHeight + ypad2);
	var n = L.node.length;
	var top = graphTop + (depths[0] + 2) * frameHeight + 1;
	for (q = 0; q < n; q++) {
		var dq = L.depth[q];
		L.y.push(depths.length === 2 ? (L.sec[q] ? top + dq * frameHeight : graphTop + (depths[0] - dq) * frameHeight + 1) :
			inverted ? graphTop + dq * frameHeight : height - ypad2 - (dq + 1) * frameHeight + 1);
	}
	setViewHeight(height);
	setViewInfo(info);
	/* widest first (faded ancestors, then the zoomed frame, lead: ties in
	 * layout order) */
	var order = new Int32Array(n);
	for (q = 0; q < n; q++) {
		order[q] = q;
	}
	order.sort(function (a, b) { return L.w[b] - L.w[a] || a - b; });
	var queue = {L: L, order: order};
	drawGen++;
	drawQueue = queue;
	viewFrames = [];
	setViewMarkup(queueMarkup(queue, 0, Math.min(n, DRAW_FIRST), d));
	scheduleBatches();
	showWriterFrames(false);
	viewShown = true;
	showElement(unzoomEl, view.zoom[0] >= 0 || view.zoom[1] >= 0);
	markButtons();
	updateUrl(viewUrl());
}

function setViewMarkup(markup) {
	viewIndex = new Map();
	viewFocus = -1;
	viewGroup.textContent = '';
	appendViewMarkup(markup, 0);
}

/* Parses markup at the end of the view; from: the index of its first frame. */
function appendViewMarkup(markup, from) {
	try {
		viewGroup.insertAdjacentHTML('beforeend', markup);
	} catch (e) {
		/* no XML fragment parsing: parse the markup as a document */
		var doc = new DOMParser().parseFromString('<g xmlns="' + SVG_NS + '">' + markup + '</g>',
			'image/svg+xml');
		var moved = document.importNode(doc.documentElement, true);
		while (moved.firstChild) {
			viewGroup.appendChild(moved.firstChild);
		}
	}
	var kids = viewGroup.children;
	for (var q = from; q < kids.length; q++) {
		viewIndex.set(kids[q], q);
	}
}

/* ---- keyboard focus in a drawn view: by geometry, as the eye moves ---- */

var viewFocus = -1;

function setViewFocus(k) {
	var kids = viewGroup.children;
	if (viewFocus >= 0 && kids[viewFocus]) {
		kids[viewFocus].classList.remove('focus');
	}
	viewFocus = k;
	if (k >= 0 && kids[k]) {
		kids[k].classList.add('focus');
		setText(detailsEl, viewDetails(k));
	}
}

/* Left/Right: the nearest frame of the same row; Up/Down: the frame of the
 * row above/below under the focused frame's left part. */
function moveViewFocus(key) {
	if (viewFocus < 0 || viewFocus >= viewFrames.length) {
		for (var q = 0; q < viewFrames.length && viewFrames[q][3]; q++) {
			/* skip faded ancestors: start at the zoomed frame */
		}
		setViewFocus(q < viewFrames.length ? q : viewFrames.length - 1);
		return;
	}
	var f = viewFrames[viewFocus];
	var best = -1;
	var bestScore = Infinity;
	for (var k = 0; k < viewFrames.length; k++) {
		var g = viewFrames[k];
		var score = Infinity;
		if (key === 'ArrowLeft' || key === 'ArrowRight') {
			var dx = key === 'ArrowLeft' ? f[4] - g[4] : g[4] - f[4];
			if (g[5] === f[5] && dx > 0) {
				score = dx;
			}
		} else {
			var dy = key === 'ArrowUp' ? f[5] - g[5] : g[5] - f[5];
			if (Math.abs(dy - frameHeight) < 0.5 && g[4] < f[4] + f[6] && g[4] + g[6] > f[4]) {
				score = Math.max(g[4], f[4]) - f[4];
			}
		}
		if (score < bestScore) {
			bestScore = score;
			best = k;
		}
	}
	if (best >= 0) {
		setViewFocus(best);
	}
}

/* n and N in a drawn view: the focus moves to the next (step 1) or
 * previous (-1) frame of the view that the search matches, left to right
 * and, at one x, outer frames first (the wider); the writer's frames,
 * hidden behind the view, are not the ones shown. */
function gotoViewMatch(step) {
	var found = [];
	for (var k = 0; k < viewFrames.length; k++) {
		var name = viewName(k);
		if (!viewFrames[k][3] && name !== null && searchRe.test(name)) {
			found.push(k);
		}
	}
	if (!found.length) {
		return;
	}
	found.sort(function (a, b) {
		var f = viewFrames[a], g = viewFrames[b];
		return f[2] - g[2] || f[4] - g[4] || g[6] - f[6] || a - b;
	});
	var at = found.indexOf(viewFocus);
	var next = at < 0 ? (step > 0 ? 0 : found.length - 1) : (at + step + found.length) % found.length;
	setViewFocus(found[next]);
}

/* Enter on the focused frame: zoom to it, and keep the focus on it. */
function zoomViewFocus() {
	if (viewFocus < 0 || viewFocus >= viewFrames.length) {
		return;
	}
	var f = viewFrames[viewFocus];
	zoomView(viewFocus);
	for (var k = 0; viewShown && k < viewFrames.length; k++) {
		if (viewFrames[k][0] === f[0] && viewFrames[k][1] === f[1]) {
			setViewFocus(k);
			break;
		}
	}
}

function setViewInfo(s) {
	ensureViewLayer();
	setText(viewInfoEl, s);
}

function setViewHeight(h) {
	svg.setAttribute('height', fmt(h));
	svg.setAttribute('viewBox', '0 0 ' + fmt(svgWidth) + ' ' + fmt(h));
	var ypad2 = 2 * fontSize + 10;
	if (detailsEl) {
		detailsEl.setAttribute('y', h === origHeight ? origDetailsY : fmt(h - ypad2 / 2));
	}
	if (matchedEl) {
		matchedEl.setAttribute('y', h === origHeight ? origMatchedY : fmt(h - ypad2 / 2));
	}
}

function leaveView() {
	if (!viewShown) {
		return;
	}
	viewShown = false;
	drawGen++;
	drawQueue = null;
	viewGroup.removeAttribute('aria-busy');
	viewGroup.textContent = '';
	viewFrames = [];
	viewIndex = new Map();
	setText(viewInfoEl, '');
	svg.setAttribute('height', fmt(origHeight));
	svg.setAttribute('viewBox', '0 0 ' + fmt(svgWidth) + ' ' + fmt(origHeight));
	setViewHeight(origHeight);
	showWriterFrames(true);
	showElement(unzoomEl, zoomed >= 0);
	markButtons();
	updateUrl(viewUrl());
}

/* Toggle buttons look pressed (class "show") while on. */
function markButtons() {
	[['fg-hide-button', view.hide !== null], ['fg-rec-button', view.rec],
		['fg-weight-button', view.weight], ['fg-table-button', tableOpen]].forEach(function (b) {
		var el = document.getElementById(b[0]);
		if (el) {
			el.classList.toggle('show', b[1]);
		}
	});
}

/* The view's URL parameters (null removes one). */
function viewUrl() {
	return {
		fn: view.fn,
		hide: view.hide,
		rec: view.rec ? '1' : null,
		order: view.weight ? 'weight' : null
	};
}

/* Toggles and the function view: each resets the view's zooms. */
function setViewState(changes) {
	Object.keys(changes).forEach(function (key) {
		view[key] = changes[key];
	});
	var wasZoomed = zoomed >= 0 || view.zoom[0] >= 0 || view.zoom[1] >= 0;
	view.zoom = [-1, -1];
	view.revealFrame = -1;
	if (zoomed >= 0) {
		zoomed = -1;
		applyView(-1);
	}
	/* (a revealing zoom drawn here wrote x and y as the writer's zoom does) */
	if (wasZoomed) {
		updateUrl({x: null, y: null});
	}
	renderView();
	if (searchRe) {
		setMatched(matchedText()); /* (over the frames hide and rec leave) */
	}
	if (typeof refreshTable === 'function') {
		refreshTable();
	}
}

function openFunction(name) {
	if (name === null) {
		return;
	}
	closeTable();
	setViewState({fn: name});
}

function toggleRecursion() {
	setViewState({rec: !view.rec});
}

function toggleWeight() {
	setViewState({weight: !view.weight});
}

function promptHide() {
	var term;
	try {
		term = window.prompt('Hide frames matching (regexp allowed; empty shows all)',
			view.hide === null ? '' : view.hide);
	} catch (e) {
		return;
	}
	if (term === null || term === undefined) {
		return;
	}
	setViewState({hide: term === '' ? null : term});
}

/* Esc in a view: out of its zoom (a revealing zoom back to the writer's
 * frames), then out of the function view. The toggles stay: their own keys
 * switch them off. Returns whether there was something to leave. */
function viewBack() {
	if (view.zoom[0] >= 0 || view.zoom[1] >= 0) {
		if (view.revealFrame >= 0) {
			resetZoom(-1);
		} else {
			view.zoom = [-1, -1];
			renderView();
		}
		return true;
	}
	if (view.fn !== null) {
		setViewState({fn: null});
		return true;
	}
	return false;
}

/* The node of base tree `base` that the writer's frame f draws (down its
 * path from the root, drawnChild by drawnChild), or -1. */
function frameNode(d, base, f) {
	var path = [];
	for (var a = f; a >= 0 && parent[a] >= 0; a = parent[a]) {
		path.push(a);
	}
	var node = 0;
	for (var q = path.length - 1; q >= 0 && node >= 0; q--) {
		var nm = d.nameIndex.get(names[path[q]]);
		node = nm === undefined ? -1 : drawnChild(base, node, path[q], d.minwidth, nm);
	}
	return node;
}

/* The child of node (in a tree of the view data's nodes: base with no hide
 * or recursion) that the writer's frame a draws, nm its name: the one at
 * a's place among the children wide enough to be drawn, as the writer
 * orders them, when it has a's name. Names alone would not do: "foo" and
 * "foo_[k]" are shown alike, and the first of the two would stand for
 * both. Else (the budget left a drawn child out) the first of that name. */
function drawnChild(base, node, a, minwidth, nm) {
	var at = childrenOf(parent[a]).indexOf(a);
	var kids = base.kids[node];
	for (var k = 0, seen = 0; k < kids.length && at >= 0; k++) {
		if (base.total[kids[k]] >= minwidth && seen++ === at) {
			if (base.name[kids[k]] === nm) {
				return kids[k];
			}
			break;
		}
	}
	return findChild(base, node, nm);
}

/* The own samples of the writer's frame f: exact from the view data once it
 * is decoded (the drawn frames miss children narrower than --minwidth),
 * else what the drawn frames say. */
function exactSelf(f) {
	if (viewData && viewCache.base && view.hide === null && !view.rec) {
		var node = frameNode(viewData, viewCache.base, f);
		if (node >= 0) {
			return viewCache.base.self[node] * viewData.factor;
		}
	}
	return self[f];
}

/* A zoom on the writer's frame f reveals: when the view data holds frames
 * under f that --minwidth left out and that the zoom makes wide enough,
 * the zoom is drawn here instead. Returns whether it was. */
function revealZoom(f) {
	var d = loadData();
	if (!d || viewWanted()) {
		return false;
	}
	var base = currentBase();
	var node = frameNode(d, base, f);
	if (node <= 0) {
		return false;
	}
	/* any frame below node narrower than --minwidth but not at this zoom? */
	var low = d.minwidth * base.total[node] / d.span;
	var stack = [node];
	var found = false;
	while (stack.length && !found) {
		var n = stack.pop();
		var kids = base.kids[n];
		for (var k = 0; k < kids.length; k++) {
			var w = base.total[kids[k]];
			if (w >= low && w > 0) {
				if (w < d.minwidth) {
					found = true;
					break;
				}
				stack.push(kids[k]);
			}
		}
	}
	if (!found) {
		return false;
	}
	view.zoom = [node, -1];
	view.revealFrame = f;
	renderView();
	return true;
}
