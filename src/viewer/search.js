/*
 * search.js - search by regex: highlight, Matched, next/previous match,
 * and the buttons created for it.
 */
/* ---- search -------------------------------------------------------------- */

var ignoreCase = false;
var searchTerm = null;
var searchRe = null;
var matches = [];
var highlighted = [];
var matchPos = -1;
var prevEl = null;
var nextEl = null;
var clearEl = null;

/*
 * A pattern that can backtrack for hours ("(.|.)*!", ".*.*!",
 * ".{0,900}.{0,900}!", ".?" twenty times then ".{20}!"): a quantified
 * group, a back-reference, more than one repeat (*, +, {m,n}), more than
 * three optional items (?), groups of alternatives ("(a|b)") and repeats
 * together, or a very long pattern.
 * One repeat costs at most the square of a name's length, each optional
 * item doubles it. (Quantifier characters inside a class, "[?*]", are
 * none; "*?" and "(?:" add none.)
 * JavaScript cannot interrupt a regular expression, so every pattern (a
 * search typed in the prompt or given by a link's ?s=, a hide= term) is
 * matched as plain text when it looks like one.
 */
function mayBacktrack(term) {
	var plain = term.replace(/\\[^0-9k]/g, 'x').replace(/\[[^\]]*\]/g, 'x');
	var repeats = (plain.match(/[*+]|\{[0-9]*,?[0-9]*\}/g) || []).length;
	/* (a '}' is a literal but where it closes {m,n}) */
	var optionals = (plain.replace(/\{[0-9]*,?[0-9]*\}/g, '*').match(/(^|[^(*+?])\?/g) || []).length;
	/* (a group of alternatives doubles the cost as an optional item does:
	 * "(a|.)" thirty times) */
	var choices = (plain.match(/\([^()]*\|[^()]*\)/g) || []).length;
	return term.length > 200 || /\)[*+{?]/.test(plain) || /\\([1-9]|k<)/.test(term) ||
		repeats > 1 || repeats + optionals + choices > 3;
}

/* The regular expression of a term, or its literal text when the term is
 * not a valid one or could backtrack for hours (mayBacktrack): the one
 * rule for the search and the hide term. A term too long for a regular
 * expression (V8 refuses, at the first test, one of 32,767 characters) is
 * matched as text by an object with the same test(). */
function patternRegExp(term, flags) {
	var literal = term.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');
	var re;
	if (!mayBacktrack(term)) {
		/* A leading .* (or .+) changes no test's result (.+ is one '.' then),
		 * but costs the square of a name's length: ?s=.*x took a tab 17 s on
		 * names of 20,000 characters. The term is still what is shown. Only
		 * where a plain item follows: '.+?' alone would become '.?', which
		 * matches an empty name too. */
		var body = term.replace(/^\.([*+])[?]?(?=[^*+?{])/, function (m, r) { return r === '+' ? '.' : ''; });
		try {
			/* (the body is valid exactly when the term is: one leading item
			 * less) */
			re = new RegExp(body, flags);
			re.term = term;
			return re;
		} catch (e) {
			/* taken literally */
		}
	}
	try {
		re = new RegExp(literal, flags);
		re.test('');
		return re;
	} catch (e) {
		/* (flags: '' or 'i') */
		return {source: literal, test: function (s) {
			return (flags ? s.toLowerCase() : s).indexOf(flags ? term.toLowerCase() : term) >= 0;
		}};
	}
}

/* The pattern to show for a search: the term as typed, or the literal
 * text it was taken as. */
function shownPattern(re) {
	return re.term || re.source;
}

function unhighlight() {
	for (var q = 0; q < highlighted.length; q++) {
		rects[highlighted[q]].removeAttribute('fill');
	}
	highlighted = [];
}

/* The matched share of the samples, exact, from the view data when it
 * holds every node (nothing left in "other"): frames narrower than
 * --minwidth count too, and with hide or rec on, the frames these leave.
 * Each sample once: a match under a match adds nothing. null without such
 * data. */
var framesNamedAsData = null; /* every drawn frame's name is a name of the data */

function matchedFromData() {
	if (viewData === null && !dataComplete()) {
		return null; /* (not decoded for nothing: its header says "other") */
	}
	var d = loadData();
	if (d && framesNamedAsData === null) {
		/* (--nameattr titles can rename drawn frames, and the search
		 * matches what they show: then Matched counts what it shows) */
		framesNamedAsData = true;
		for (var f = 0; f < N && framesNamedAsData; f++) {
			framesNamedAsData = parent[f] < 0 || d.nameIndex.has(names[f]);
		}
	}
	var base = d && d.otherAll === 0 && framesNamedAsData ? currentBase() : null;
	if (!base || !(d.span > 0)) {
		return null;
	}
	var hit = new Uint8Array(base.n);
	var tested = new Int8Array(d.names.length);
	var sum = 0;
	for (var i = 0; i < base.n; i++) {
		var nm = base.name[i];
		if (i > 0 && hit[base.parent[i]]) {
			hit[i] = 1;
		} else if (nm >= 0) {
			if (tested[nm] === 0) {
				tested[nm] = searchRe.test(d.names[nm]) ? 1 : -1;
			}
			if (tested[nm] > 0) {
				hit[i] = 1;
				/* (the root spans --total when that is larger) */
				sum += i === 0 ? Math.max(base.total[0], d.span) : base.total[i];
			}
		}
	}
	return 100 * sum / d.span;
}

function matchedText() {
	var source = plainText(shownPattern(searchRe));
	if (source.length > 40) {
		/* (not between the two halves of a character beyond U+FFFF) */
		source = source.slice(0, isHighSurrogate(source, 37) ? 37 : 38) + '..';
	}
	var p = matchedFromData();
	if (p === null) {
		/* the drawn frames: those --minwidth left out are missed */
		var sum = 0;
		var cover = -1;
		for (var q = 0; q < N; q++) {
			var f = order[q];
			if (q >= cover && searchRe.test(names[f])) {
				sum += count[f];
				cover = q + size[f];
			}
		}
		p = total > 0 ? 100 * sum / total : 0;
	}
	var where = matchPos >= 0 ? (matchPos + 1) + ' of ' + matches.length : String(matches.length);
	/* (a sum of decimals may miss 100 by a rounding error) */
	return 'Matched: ' + (Math.abs(p - 100) < 1e-9 ? '100' : p.toFixed(1)) + '% for /' + source + '/' +
		(ignoreCase ? 'i' : '') + ' (' + where + (matches.length === 1 ? ' frame)' : ' frames)');
}

function runSearch(term) {
	unhighlight();
	searchTerm = term;
	searchRe = patternRegExp(term, ignoreCase ? 'i' : '');
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
	refreshViews();
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
	refreshViews();
}

/* The drawn view and the table follow the search. */
function refreshViews() {
	if (viewShown) {
		renderView();
	}
	refreshTable();
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
	/* (In the URL: a link to a search matches what it matched here.) */
	updateUrl({ic: ignoreCase ? '1' : null});
	if (searchTerm !== null) {
		runSearch(searchTerm);
	}
}

/* Next (step 1) or previous (-1) match in pre-order from the focus. A
 * match drawn 0 px wide (--minwidth below 0.1 px) has no width to zoom
 * to, as it has none to click: it is passed over. */
function gotoMatch(step) {
	if (viewShown && searchRe) {
		gotoViewMatch(step);
		return;
	}
	var from = focused >= 0 ? pre[focused] : step > 0 ? -1 : N;
	var q = -1;
	var wrap = -1;
	for (var k = 0; k < matches.length && q < 0; k++) {
		var m = step > 0 ? k : matches.length - 1 - k;
		if (w0[matches[m]] > 0) {
			wrap = wrap < 0 ? m : wrap;
			q = (pre[matches[m]] - from) * step > 0 ? m : -1;
		}
	}
	q = q < 0 ? wrap : q;
	if (q < 0) {
		return;
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
		ensureIndex();
		action();
	});
	svg.insertBefore(t, framesGroup);
	return t;
}

if (searchEl) {
	var sx = parseFloat(searchEl.getAttribute('x')) || 0;
	var sy = searchEl.getAttribute('y') || String(2 * fontSize);
	/* its width from the font, as the labels' (measuring it would lay out
	 * the whole graph while the page loads) */
	var sw = searchEl.textContent.length * charWidth;
	prevEl = makeButton('prev-match', '\u25C0', 'Previous match (N)', sx - 3 * fontSize, sy, function () { gotoMatch(-1); });
	nextEl = makeButton('next-match', '\u25B6', 'Next match (n)', sx - 1.6 * fontSize, sy, function () { gotoMatch(1); });
	clearEl = makeButton('clear-search', '\u00D7', 'Clear search', sx + sw + fontSize / 2, sy, clearSearch);
}
if (matchedEl) {
	/* Right-aligned, so a long "Matched: ... for /term/" stays inside. */
	matchedEl.setAttribute('x', fmt(svgWidth - xpad));
	matchedEl.setAttribute('text-anchor', 'end');
}

