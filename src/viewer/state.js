/*
 * state.js - the viewer's configuration, view state and URL; the first of
 * the viewer's files.
 *
 * The viewer is the interactive part of an fg flame graph SVG. It is a few
 * files by job, joined in this order into one script by the build
 * (Makefile VIEWER_JS, src/tools/embed.c) and embedded (minus indentation
 * and whole-line comments) as the last child of <svg>, so it runs once with
 * the whole DOM present. This file opens the closure that main.js closes;
 * every file shares its scope:
 *   state.js   configuration (data-* attributes of <svg>), formatting, URL
 *   draw.js    the drawn frames: index, labels, zoom, details, focus
 *   search.js  search and its buttons
 *   data.js    the view data (<metadata id="fg-data">) and the trees
 *              derived from it: hide, recursion, function view, totals
 *   views.js   views the viewer draws (function view, toggles, zoom-reveal)
 *   table.js   the function table
 *   main.js    events, keys and the state restored from the URL
 * docs/svg-contract.md is the DOM it expects.
 *
 * Behaviour (fg-render(1), THE VIEWER; what differs from flamegraph.pl is marked *):
 * - hover or keyboard focus: #details shows "NAMETYPE TITLE" followed by
 *   self samples* and, when zoomed, the share of the zoomed frame*.
 * - click: zoom to the frame. Ancestors get class "parent" (faded) and span
 *   the full width, frames outside the subtree are out of view, labels are
 *   re-fitted. Clicking the root or Esc or "Reset Zoom" restores the view.
 * - links (--nameattr href, the frame is an <a>): a plain click follows the
 *   link and Ctrl/Meta/Shift/middle clicks do what the browser does with a
 *   link (new tab, new window), so no mouse click on a link zooms, except
 *   Alt-click*, which zooms. (The original zoomed on Ctrl-click; a Ctrl-click
 *   on a link opens it in a new tab, as everywhere else in a browser.) Keyboard Enter also zooms any frame.
 * - search: the Search button, Ctrl-F, F3 and "/" open a prompt (prefilled*
 *   with the active term); the term is a regular expression, or literal
 *   text when it is not a valid one or could backtrack (mayBacktrack)*.
 *   It is matched against the frame name only*, not the " (N samples,
 *   P%)" suffix. Matches are painted magenta
 *   and #matched shows "Matched: P%" of the whole graph, each sample counted
 *   once, and the active term*. The "x" next to Search* (or an empty term)
 *   clears the search. Ctrl-I and the "ic" button toggle ignore-case.
 * - n / N and the arrow buttons next to Search*: zoom to the next/previous
 *   match in pre-order (left to right, outer frames first).
 * - keyboard focus*: arrow keys move to the parent (Down; Up when
 *   inverted), the first child (Up; Down when inverted) and the previous or
 *   next frame of the same row (Left/Right: the siblings, then the cousins);
 *   Enter zooms the focused frame. The focus is outlined (class "focus").
 * - URL: query parameters x and y (the zoomed frame's original rect x and y),
 *   s (the search term), ic=1 and the views' fn, hide, rec=1, order=weight
 *   and table=1 (docs/svg-contract.md) are kept up to date with
 *   history.replaceState and applied at load; other parameters are kept. When the browser
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

/* A count (times --factor) as the writer shows it in a title: a whole
 * number, half to even (printf's "%.0f"). Its share is taken from the
 * exact count, not from this. */
function shownCount(v) {
	var r = Math.round(v);
	return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function pct(part, whole) {
	return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '0.00%';
}

/* ---- URL ----------------------------------------------------------------- */

/* history.replaceState costs milliseconds (a same-document navigation), so
 * changes are collected and written once, after the frame that shows the
 * new view (or after 200 ms where animation frames do not run, as in a
 * background tab). */
var urlChanges = null;

/* Runs task in a task after the next frame (at once without frames). */
function afterFrame(task) {
	try {
		window.requestAnimationFrame(function () {
			window.setTimeout(task, 0);
		});
	} catch (e) {
		task();
	}
}

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
		afterFrame(flushUrl);
		window.setTimeout(flushUrl, 200);
	}
	Object.keys(changes).forEach(function (key) {
		urlChanges[key] = changes[key];
	});
}

