/*
 * data.js - the view data and the trees derived from it (no DOM writes).
 *
 * The writer adds the whole frame tree, exact to the sample, as text in
 * <metadata id="fg-data"> (docs/svg-contract.md, "View data"). It is decoded
 * on first use into flat arrays in pre-order. Every view is a derived tree
 * of the same shape (makeTree): the base tree is the data with hidden
 * frames cut out and recursion collapsed; a function view is two trees
 * made from the base tree, the callees and the callers of one function.
 * A derived tree's nodes are created parent first, so ids grow from the
 * root out and one pass from the last id to the first sums totals.
 */

var viewData = null;      /* decoded data, or false when the SVG has none */
var NO_DATA = 'This SVG has no view data (fg-render --view-nodes 0, a differential graph or a flame chart).';

function unescapeName(s) {
	return s.indexOf('\\') < 0 ? s : s.replace(/\\(.)/g, function (m, c) {
		return c === 'n' ? '\n' : c === 'r' ? '\r' : c;
	});
}

function isBase36(c) {
	return (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
}
function isNumberChar(c) {
	return (c >= 48 && c <= 57) || c === 46;
}

/* Whether the view data holds every node (its header's other=0), read
 * from the header alone, without decoding the rest. */
function dataComplete() {
	var el = document.getElementById('fg-data');
	var text = el && el.firstChild && el.firstChild.nodeType === 3 ?
		el.firstChild.substringData(0, 512) : '';
	var header = text.split('\n')[0];
	return /^fg-data 1 /.test(header) && / other=0(?: |$)/.test(header);
}

/* {names, nameId, parent, self, other, total, count, drawn, other...} */
function loadData() {
	if (viewData !== null) {
		return viewData;
	}
	viewData = false;
	var el = document.getElementById('fg-data');
	if (!el) {
		return viewData;
	}
	var text = el.textContent;
	var lines = text.split('\n');
	var header = {};
	var fields = lines[0].split(' ');
	if (fields[0] !== 'fg-data' || fields[1] !== '1') {
		return viewData;
	}
	for (var q = 2; q < fields.length; q++) {
		var eq = fields[q].indexOf('=');
		header[fields[q].slice(0, eq)] = fields[q].slice(eq + 1);
	}
	var nameCount = parseInt(header.names, 10);
	var n = parseInt(header.nodes, 10);
	var dataNames = new Array(nameCount);
	var nameIndex = new Map();
	for (q = 0; q < nameCount; q++) {
		dataNames[q] = unescapeName(lines[1 + q] || '');
		if (q > 0 && !nameIndex.has(dataNames[q])) {
			nameIndex.set(dataNames[q], q);
		}
	}
	var tree = lines[1 + nameCount] || '';
	var nameId = new Int32Array(n);
	var parentOf = new Int32Array(n);
	var selfOf = new Float64Array(n);
	var otherOf = new Float64Array(n);
	var path = [];
	var at = 0;
	var len = tree.length;
	for (var i = 0; i < n && at < len; i++) {
		var start = at;
		var id = 0;
		for (var c = tree.charCodeAt(at); at < len && isBase36(c); c = tree.charCodeAt(++at)) {
			id = id * 36 + (c <= 57 ? c - 48 : c - 87);
		}
		nameId[i] = at > start ? id : -1;
		parentOf[i] = path.length ? path[path.length - 1] : -1;
		while (at < len && (tree[at] === ':' || tree[at] === '!')) {
			var kind = tree[at++];
			start = at;
			while (at < len && isNumberChar(tree.charCodeAt(at))) {
				at++;
			}
			var v = parseFloat(tree.slice(start, at)) || 0;
			if (kind === ':') {
				selfOf[i] = v;
			} else {
				otherOf[i] = v;
			}
		}
		path.push(i);
		if (tree[at] === ',') {
			at++;
		} else {
			while (tree[at] === ')') {
				path.pop();
				at++;
			}
		}
	}
	n = i;
	var totalOf = new Float64Array(n);
	for (i = 0; i < n; i++) {
		totalOf[i] = selfOf[i] + otherOf[i];
	}
	for (i = n - 1; i > 0; i--) {
		totalOf[parentOf[i]] += totalOf[i];
	}
	var minwidth = parseFloat(header.minwidth) || 0;
	viewData = {
		names: dataNames, nameIndex: nameIndex, n: n, nameId: nameId, parent: parentOf,
		self: selfOf, other: otherOf, total: totalOf,
		span: parseFloat(header.total) || totalOf[0],
		minwidth: minwidth,
		factor: parseFloat(header.factor) || 1,
		otherAll: parseFloat(header.other) || 0
	};
	if (header.named !== undefined) {
		nameFromFrames(viewData);
	}
	return viewData;
}

/* Names the writer left out (header "named"): a node without a name is
 * drawn at least 0.1 px wide, and the n-th drawn child of a drawn node
 * (total >= minwidth) is the n-th drawn frame from the left above the
 * parent's frame. The index finds a frame's parent from geometry, which
 * is certain for frames drawn with a width (their rounded intervals are
 * disjoint) but not for those drawn 0 px wide (--minwidth below 0.1 px):
 * such a frame at the left edge of a wider cousin can be taken for the
 * cousin's child. So an unnamed node takes the name of the parent's next
 * child frame drawn with a width that starts where the writer draws the
 * node (own samples first, then the elder siblings, rounded as llrint);
 * below a node whose children the budget left out ("other", places
 * unknown), the next one whose count (the title's) is the node's. */
function nameFromFrames(d) {
	var kids = new Array(d.n);
	var px = fullWidth / d.span;
	var q;
	for (q = 1; q < d.n; q++) {
		(kids[d.parent[q]] || (kids[d.parent[q]] = [])).push(q);
	}
	function idOf(s) {
		var id = d.nameIndex.get(s);
		if (id === undefined) {
			id = d.names.length;
			d.names.push(s);
			d.nameIndex.set(s, id);
		}
		return id;
	}
	/* per entry: node, its frame, its start in counts (NaN: not known) */
	var stack = root >= 0 ? [0, root, 0] : [];
	while (stack.length) {
		var at = stack.pop();
		var f = stack.pop();
		var node = stack.pop();
		var fk = childrenOf(f);
		var next = 0;
		at = d.other[node] ? NaN : at + d.self[node];
		(kids[node] || []).forEach(function (c) {
			var t = Math.round((xpad + at * px) * 10);
			var x = (t - (xpad + at * px) * 10 === 0.5 && t % 2 ? t - 1 : t) / 10;
			var g = -1;
			for (; d.nameId[c] < 0 && next < fk.length && g < 0; next++) {
				var k = fk[next];
				g = w0[k] > 0 && (at >= 0 ? Math.abs(x0[k] - x) < 0.001 :
					Math.abs(count[k] - d.total[c] * d.factor) <= 0.5 + 1e-9 * count[k]) ? k : -1;
			}
			if (g >= 0) {
				d.nameId[c] = idOf(names[g]);
				stack.push(c, g, at);
			}
			at += d.total[c];
		});
	}
	for (q = 1; q < d.n; q++) {
		if (d.nameId[q] < 0) {
			d.nameId[q] = idOf('?');
		}
	}
}

/* An empty derived tree whose root is named by name id rootName, with
 * room for about `room` nodes (it grows). A tree is n nodes in typed
 * arrays (name id, parent, own, other and total samples; their length is
 * the capacity, not n) and each node's children. Its child index is a
 * hash table in typed arrays (open addressing, linear probing; slot ->
 * node id + 1) keyed by (parent, name): a Map keyed by numbers beyond 2^31
 * costs several times as much per node. */
function makeTree(rootName, room) {
	var cap = Math.max(16, room);
	var t = {n: 1, name: new Int32Array(cap), parent: new Int32Array(cap), self: new Float64Array(cap),
		other: new Float64Array(cap), total: new Float64Array(cap), kids: [[]],
		slots: new Int32Array(1 << Math.ceil(Math.log2(2 * cap + 2))), sortedBy: null};
	t.name[0] = rootName;
	t.parent[0] = -1;
	return t;
}

function growTree(t) {
	['name', 'parent', 'self', 'other', 'total'].forEach(function (key) {
		var bigger = new t[key].constructor(2 * t[key].length);
		bigger.set(t[key]);
		t[key] = bigger;
	});
}

function slotOf(t, p, nm) {
	var mask = t.slots.length - 1;
	var h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(nm, 0x85ebca6b)) >>> 0;
	for (var s = h & mask; ; s = (s + 1) & mask) {
		var c = t.slots[s] - 1;
		if (c < 0 || (t.parent[c] === p && t.name[c] === nm)) {
			return s;
		}
	}
}

/* The child of p named nm in t, or -1 (any tree, with or without index). */
function findChild(t, p, nm) {
	var kids = t.kids[p];
	for (var k = 0; k < kids.length; k++) {
		if (t.name[kids[k]] === nm) {
			return kids[k];
		}
	}
	return -1;
}

/* The child of p named nm in t, created when missing. */
function childOf(t, p, nm) {
	var s = slotOf(t, p, nm);
	var c = t.slots[s] - 1;
	if (c < 0) {
		c = t.n++;
		if (c === t.name.length) {
			growTree(t);
		}
		t.name[c] = nm;
		t.parent[c] = p;
		t.kids.push([]);
		t.kids[p].push(c);
		t.slots[s] = c + 1;
		if (2 * t.n > t.slots.length) {
			var old = t.slots;
			t.slots = new Int32Array(2 * old.length);
			for (var q = 0; q < old.length; q++) {
				if (old[q] > 0) {
					t.slots[slotOf(t, t.parent[old[q] - 1], t.name[old[q] - 1])] = old[q];
				}
			}
		}
	}
	return c;
}

/* Totals from own and other counts, children before parents. */
function sumTotals(t) {
	var q;
	for (q = 0; q < t.n; q++) {
		t.total[q] = t.self[q] + t.other[q];
	}
	for (q = t.n - 1; q > 0; q--) {
		t.total[t.parent[q]] += t.total[q];
	}
	return t;
}

/* The data with frames matching hideRe cut out (their children join their
 * parent and merge) and, when rec, runs of one function collapsed to one
 * frame (a;f;f;f;b reads a;f;b). map[i] is the base node of data node i.
 * Without either, the data is the base tree as it is (its nodes are
 * already merged by path): no copy, no index. */
function baseTree(d, hideRe, rec) {
	if (!hideRe && !rec) {
		var kids = new Array(d.n);
		for (var i = 0; i < d.n; i++) {
			kids[i] = [];
			if (i > 0) {
				kids[d.parent[i]].push(i);
			}
		}
		return {n: d.n, name: d.nameId, parent: d.parent, self: d.self, other: d.other, total: d.total,
			kids: kids, slots: null, sortedBy: null};
	}
	var t = makeTree(0, d.n);
	var hidden = new Uint8Array(d.names.length);
	if (hideRe) {
		for (var q = 1; q < d.names.length; q++) {
			hidden[q] = hideRe.test(d.names[q]) ? 1 : 0;
		}
	}
	var map = new Int32Array(d.n);
	t.self[0] = d.self[0];
	t.other[0] = d.other[0];
	for (i = 1; i < d.n; i++) {
		var p = map[d.parent[i]];
		var nm = d.nameId[i];
		var b = hidden[nm] || (rec && t.name[p] === nm && p !== 0) ? p : childOf(t, p, nm);
		map[i] = b;
		t.self[b] += d.self[i];
		t.other[b] += d.other[i];
	}
	return sumTotals(t);
}

/* For each node of t: whether an ancestor (not itself) is named nm. */
function ancestorNamed(t, nm) {
	var anc = new Uint8Array(t.n);
	for (var q = 1; q < t.n; q++) {
		var p = t.parent[q];
		anc[q] = p > 0 && (anc[p] || t.name[p] === nm) ? 1 : 0;
	}
	return anc;
}

/* The callees of function nm merged across its call sites: its outermost
 * occurrences (no ancestor of the same name) and everything above them,
 * merged by path, rooted at nm. Counts are exact: a path's count is the
 * samples in which it occurs above an outermost nm. */
function calleeTree(t, nm) {
	var c = makeTree(nm, 1024);
	var anc = ancestorNamed(t, nm);
	var map = new Int32Array(t.n).fill(-1);
	for (var q = 1; q < t.n; q++) {
		if (t.name[q] === nm && !anc[q]) {
			map[q] = 0;
		} else if (map[t.parent[q]] >= 0) {
			map[q] = childOf(c, map[t.parent[q]], t.name[q]);
		} else {
			continue;
		}
		c.self[map[q]] += t.self[q];
		c.other[map[q]] += t.other[q];
	}
	return sumTotals(c);
}

/* The callers of function nm merged: from each outermost occurrence down
 * to the root's child, weighted by that occurrence's total, rooted at nm
 * (the path toward the root drawn outward from nm). */
function callerTree(t, nm) {
	var c = makeTree(nm, 1024);
	var anc = ancestorNamed(t, nm);
	for (var q = 1; q < t.n; q++) {
		if (t.name[q] !== nm || anc[q]) {
			continue;
		}
		var w = t.total[q];
		var at = 0;
		c.total[0] += w;
		for (var p = t.parent[q]; p > 0; p = t.parent[p]) {
			at = childOf(c, at, t.name[p]);
			c.total[at] += w;
		}
	}
	/* self: what ends there (no further caller) */
	for (q = 0; q < c.n; q++) {
		c.self[q] = c.total[q];
	}
	for (q = 1; q < c.n; q++) {
		c.self[c.parent[q]] -= c.total[q];
	}
	return c;
}

/* Per function name id: own samples and total samples, each sample counted
 * once however often the function occurs in its stack (only outermost
 * occurrences add to the total). The root is left out. */
function functionTotals(t, nameCount) {
	var self = new Float64Array(nameCount);
	var total = new Float64Array(nameCount);
	var seen = new Uint8Array(nameCount);
	/* depth-first with an "open" count per name: enter adds, leave removes */
	var open = new Int32Array(nameCount);
	var stack = [0];
	while (stack.length) {
		var q = stack.pop();
		if (q < 0) {
			open[t.name[~q]]--;
			continue;
		}
		if (q > 0) {
			var nm = t.name[q];
			self[nm] += t.self[q];
			seen[nm] = 1;
			if (open[nm] === 0) {
				total[nm] += t.total[q];
			}
			open[nm]++;
			stack.push(~q);
		}
		var kids = t.kids[q];
		for (var k = 0; k < kids.length; k++) {
			stack.push(kids[k]);
		}
	}
	return {self: self, total: total, seen: seen};
}

/* Bytewise (UTF-8) order of two strings, as the writer sorts siblings:
 * code point order, which UTF-16 comparison gets wrong only around
 * surrogates. */
function compareNames(a, b) {
	if (a === b) {
		return 0;
	}
	var n = Math.min(a.length, b.length);
	for (var q = 0; q < n; q++) {
		var x = a.codePointAt(q);
		var y = b.codePointAt(q);
		if (x !== y) {
			return x < y ? -1 : 1;
		}
		if (x > 0xffff) {
			q++;
		}
	}
	return a.length - b.length;
}

/* Each name's position in bytewise order, computed once. */
var nameRank = null;
function rankOf(names) {
	if (!nameRank || nameRank.length !== names.length) {
		var ids = [];
		for (var q = 0; q < names.length; q++) {
			ids.push(q);
		}
		ids.sort(function (a, b) {
			return compareNames(names[a], names[b]);
		});
		nameRank = new Int32Array(names.length);
		for (q = 0; q < ids.length; q++) {
			nameRank[ids[q]] = q;
		}
	}
	return nameRank;
}

/* Children of node q in drawing order: by name, or heaviest first. */
function sortedKids(t, q, byWeight, names) {
	var key = byWeight ? 'w' : 'n';
	if (t.sortedBy !== key) {
		t.sortedBy = key;
		t.sortedDone = new Uint8Array(t.n);
	}
	var kids = t.kids[q];
	if (!t.sortedDone[q]) {
		t.sortedDone[q] = 1;
		var rank = rankOf(names);
		kids.sort(function (a, b) {
			return (byWeight ? t.total[b] - t.total[a] : 0) || rank[t.name[a]] - rank[t.name[b]];
		});
	}
	return kids;
}
