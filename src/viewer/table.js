/*
 * table.js - the function table: every function with its own (self) and
 * total samples, from the view data (exact: the folded input's sums, not
 * the drawn frames), after the hide and recursion toggles, filtered by the
 * search, sorted by either column. A sample counts once in a function's
 * total however often the function recurses in its stack.
 *
 * The table is XHTML in a <foreignObject> over the graph; rows are
 * focusable (Tab; the arrow keys, Page Up/Down, Home and End move between
 * them), Enter or a click opens the function view of a row, and on a
 * heading sorts by it (the heading keeps the focus).
 * At most TABLE_ROWS rows are built; the table says how many more match.
 */

var TABLE_ROWS = 500;
var XHTML_NS = 'http://www.w3.org/1999/xhtml';
var tableOpen = false;
var tableSort = 'total';
var tableBox = null;
var tableDiv = null;
var tableNames = [];

function ensureTable() {
	if (tableBox) {
		return;
	}
	tableBox = document.createElementNS(SVG_NS, 'foreignObject');
	tableBox.setAttribute('id', 'fg-table');
	tableDiv = document.createElementNS(XHTML_NS, 'div');
	tableDiv.setAttribute('class', 'fg-table');
	tableBox.appendChild(tableDiv);
	svg.insertBefore(tableBox, document.getElementById('fg-data') || null);
	tableDiv.addEventListener('click', function (e) {
		var el = e.target;
		for (; el && el !== tableDiv; el = el.parentNode) {
			var sort = el.getAttribute && el.getAttribute('data-sort');
			if (sort) {
				sortTable(sort);
				return;
			}
			var row = el.getAttribute && el.getAttribute('data-row');
			if (row !== null && row !== undefined && row !== '') {
				openFunction(tableNames[+row]);
				return;
			}
		}
	});
	tableDiv.addEventListener('keydown', function (e) {
		var el = e.target;
		if (e.key !== 'Enter' || !el.getAttribute) {
			return;
		}
		var row = el.getAttribute('data-row');
		var sort = el.getAttribute('data-sort');
		if (sort) {
			sortTable(sort);
		} else if (row !== null) {
			openFunction(tableNames[+row]);
		} else {
			return;
		}
		e.preventDefault();
		e.stopPropagation();
	});
}

/* Sorts by a column; its heading, rebuilt, keeps the focus. */
function sortTable(sort) {
	tableSort = sort;
	refreshTable();
	var heading = tableDiv.querySelector('[data-sort="' + sort + '"]');
	if (heading && heading.focus) {
		heading.focus();
	}
}

/* A key while the table is open: the arrows, Page Up/Down, Home and End
 * move the focus between rows (from a heading, into the first); the graph
 * behind the table takes none. Returns whether the key was the table's. */
var TABLE_STEPS = {ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -TABLE_ROWS, End: TABLE_ROWS};
function tableKey(key) {
	if (key === 'ArrowLeft' || key === 'ArrowRight') {
		return true;
	}
	var step = TABLE_STEPS[key];
	if (step === undefined) {
		return false;
	}
	var rows = tableDiv ? tableDiv.querySelectorAll('tr[data-row]') : [];
	if (!rows.length) {
		return true;
	}
	var el = document.activeElement;
	var at = el && el.getAttribute ? el.getAttribute('data-row') : null;
	var row = at !== null && at !== '';
	var to = (row ? +at : -1) + step; /* (a heading is row -1) */
	if (to >= 0 || row) {
		rows[Math.max(0, Math.min(to, rows.length - 1))].focus();
	}
	return true;
}

function openTable() {
	ensureTable();
	tableOpen = true;
	refreshTable();
	markButtons();
	updateUrl({table: '1'});
	var first = tableDiv.querySelector('[data-sort]');
	if (first && first.focus) {
		first.focus();
	}
}

function closeTable() {
	if (!tableOpen) {
		return;
	}
	tableOpen = false;
	tableBox.setAttribute('display', 'none');
	markButtons();
	updateUrl({table: null});
}

function toggleTable() {
	if (tableOpen) {
		closeTable();
	} else {
		openTable();
	}
}

function cell(s, cls) {
	return '<td' + (cls ? ' class="' + cls + '"' : '') + '>' + escapeXml(s) + '</td>';
}

function refreshTable() {
	if (!tableOpen) {
		return;
	}
	var d = loadData();
	var base = currentBase();
	var height = parseFloat(svg.getAttribute('height')) || svgHeight;
	tableBox.setAttribute('x', fmt(xpad));
	tableBox.setAttribute('y', fmt(3 * fontSize));
	tableBox.setAttribute('width', fmt(fullWidth));
	tableBox.setAttribute('height', fmt(Math.max(height - 3 * fontSize - (2 * fontSize + 10), 5 * frameHeight)));
	tableBox.removeAttribute('display');
	if (!d || !base) {
		tableDiv.innerHTML = '<p>' + NO_DATA + '</p>';
		return;
	}
	var sums = functionTotals(base, d.names.length);
	var list = [];
	for (var q = 1; q < d.names.length; q++) {
		if (sums.seen[q] && (!searchRe || searchRe.test(d.names[q]))) {
			list.push(q);
		}
	}
	var bySelf = tableSort === 'self';
	var byName = tableSort === 'name';
	list.sort(function (a, b) {
		if (byName) {
			return compareNames(d.names[a], d.names[b]);
		}
		var x = bySelf ? sums.self : sums.total;
		var y = bySelf ? sums.total : sums.self;
		return x[b] - x[a] || y[b] - y[a] || compareNames(d.names[a], d.names[b]);
	});
	var parts = ['<table><thead><tr>',
		'<th tabindex="0" data-sort="self"', bySelf ? ' class="sorted"' : '', '>Self</th><th>%</th>',
		'<th tabindex="0" data-sort="total"', !bySelf && !byName ? ' class="sorted"' : '', '>Total</th><th>%</th>',
		'<th tabindex="0" data-sort="name"', byName ? ' class="sorted"' : '', '>', escapeXml(nameType.replace(/:$/, '')), ' (', list.length, ')', searchRe ? ' matching /' + escapeXml(shownPattern(searchRe)) + '/' : '',
		view.hide !== null ? ', hiding /' + escapeXml(view.hide) + '/' : '',
		view.rec ? ', recursion collapsed' : '', '</th></tr></thead><tbody>'];
	tableNames = [];
	for (q = 0; q < list.length && q < TABLE_ROWS; q++) {
		var nm = list[q];
		var s = sums.self[nm];
		var t = sums.total[nm];
		tableNames.push(d.names[nm]);
		parts.push('<tr tabindex="0" data-row="', q, '">', cell(formatCount(shownCount(s * d.factor)), 'n'),
			cell(pct(s, d.span), 'n'), cell(formatCount(shownCount(t * d.factor)), 'n'), cell(pct(t, d.span), 'n'),
			cell(d.names[nm], ''), '</tr>');
	}
	parts.push('</tbody></table>');
	if (list.length > TABLE_ROWS) {
		parts.push('<p>', list.length - TABLE_ROWS, ' more; search to narrow the list.</p>');
	}
	if (d.otherAll > 0) {
		parts.push('<p>', formatCount(shownCount(d.otherAll * d.factor)), ' ', escapeXml(countName),
			' are in "other" (left out by the view data budget) and counted for no function.</p>');
	}
	tableDiv.innerHTML = parts.join('');
}
