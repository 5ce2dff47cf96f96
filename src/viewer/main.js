/*
 * main.js - events, keys and the state restored from the URL; the last of
 * the viewer's files (it closes the closure state.js opens).
 *
 * Keys (plain, no Ctrl/Alt): / F3 search, n N next/previous match, arrows
 * move the focus (in a drawn view too), Enter zooms, Esc goes back (table, zoom, function view),
 * t the function table, f the function view of the focused or hovered
 * frame, h hide frames by regex, r collapse recursion, w order by weight.
 * Shift-click on a frame opens its function view.
 */

function frameOf(node) {
	return indexedAncestor(node, framesGroup, indexOf);
}

framesGroup.addEventListener('mouseover', function (e) {
	ensureIndex();
	var f = frameOf(e.target);
	if (f >= 0) {
		showDetails(f);
	}
});
framesGroup.addEventListener('mouseout', function (e) {
	ensureIndex();
	var f = frameOf(e.target);
	if (f >= 0 && frameOf(e.relatedTarget) !== f) {
		clearDetails();
	}
});
framesGroup.addEventListener('click', function (e) {
	ensureIndex();
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
	if (e.shiftKey) {
		openFunction(parent[f] < 0 ? null : names[f]);
		return;
	}
	setFocus(f, false);
	zoomTo(f);
	showDetails(f);
});
if (unzoomEl) {
	unzoomEl.addEventListener('click', function () {
		ensureIndex();
		resetZoom(-1);
	});
}
if (searchEl) {
	searchEl.addEventListener('click', function () {
		ensureIndex();
		promptSearch();
	});
}
if (ignoreCaseEl) {
	ignoreCaseEl.addEventListener('click', function () {
		ensureIndex();
		toggleIgnoreCase();
	});
}

/* The name of the frame the pointer is on, else of the focused frame. */
var viewHovered = -1;
function functionUnderPointer() {
	if (viewShown && viewHovered >= 0 && viewHovered < viewFrames.length) {
		return viewName(viewHovered);
	}
	if (viewShown && viewFocus >= 0 && viewFocus < viewFrames.length) {
		return viewName(viewFocus);
	}
	/* (the root, "all", is no function) */
	if (!viewShown && detailsFrame >= 0) {
		return parent[detailsFrame] < 0 ? null : names[detailsFrame];
	}
	if (!viewShown && focused >= 0) {
		return parent[focused] < 0 ? null : names[focused];
	}
	return null;
}

/* Text buttons for the views, after "Reset Zoom": only with view data. */
if (document.getElementById('fg-data')) {
	var bx = xpad + 7 * fontSize;
	var by = String(2 * fontSize);
	[['fg-table-button', 'Table', 'Function table (t)', toggleTable],
		['fg-hide-button', 'Hide', 'Hide frames by regex (h)', promptHide],
		['fg-rec-button', 'Rec', 'Collapse recursion (r)', toggleRecursion],
		['fg-weight-button', 'Weight', 'Order by weight (w)', toggleWeight]].forEach(function (b) {
		var el = makeButton(b[0], b[1], b[2], bx, by, b[3]);
		el.classList.remove('hide');
		bx += (b[1].length + 2) * charWidth;
	});
}

document.addEventListener('keydown', function (e) {
	ensureIndex();
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
		if (tableOpen) {
			closeTable();
		} else if (!viewBack()) {
			resetZoom(focusShown ? focused : -1);
		}
	} else if (key === 't') {
		toggleTable();
	} else if (key === 'f') {
		var of = functionUnderPointer();
		if (of !== null) {
			openFunction(of);
		}
	} else if (key === 'h') {
		promptHide();
	} else if (key === 'r') {
		toggleRecursion();
	} else if (key === 'w') {
		toggleWeight();
	} else if (key === 'n') {
		gotoMatch(1);
	} else if (key === 'N') {
		gotoMatch(-1);
	} else if (tableOpen && tableKey(key)) {
		/* (the table's: rows) */
	} else if ((key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight') && viewShown) {
		moveViewFocus(key);
	} else if (key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight') {
		moveFocus(key);
	} else if (key === 'Enter' && viewShown && viewFocus >= 0) {
		zoomViewFocus();
	} else if (key === 'Enter' && !viewShown && focused >= 0 && visible(focused)) {
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
	if (!window.location.search) {
		return;
	}
	ensureIndex();
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
	if (params.get('ic') === '1') {
		toggleIgnoreCase();
	}
	var s = params.get('s');
	if (s) {
		runSearch(s);
	}
	var changes = {};
	if (params.get('fn') !== null) {
		changes.fn = params.get('fn');
	}
	if (params.get('hide')) {
		changes.hide = params.get('hide');
	}
	if (params.get('rec') === '1') {
		changes.rec = true;
	}
	if (params.get('order') === 'weight') {
		changes.weight = true;
	}
	if (Object.keys(changes).length) {
		setViewState(changes);
	}
	if (params.get('table') === '1') {
		openTable();
	}
})();

/* When the page is first idle, the index of the frames is built; when it
 * is idle again, the view data is decoded and what every view needs once
 * (the names' order, the writer's colours) is computed, so that the first
 * view opened does not wait for it. */
function whenIdle(task) {
	(window.requestIdleCallback || window.setTimeout)(task);
}
whenIdle(function () {
	ensureIndex();
	if (document.getElementById('fg-data')) {
		whenIdle(function () {
			var d = loadData();
			if (d) {
				currentBase();
				rankOf(d.names);
				fillOf('all');
			}
			markTime('fg-data');
		});
	}
});
})();
