// bench/views.mjs - the viewer's function views on a large profile, in
// headless Chromium: page load, the function table, a function view, the
// hide and recursion toggles, weight order and a deep zoom that reveals.
//
// usage: node bench/views.mjs [NODES] [fg-render OPTION...]
//   NODES (default 200000): a synthetic profile with that many distinct
//   frame-tree nodes (a fixed LCG, the same bytes every run), about a tenth
//   of them wide enough to be drawn at the default --minwidth.
// FG_RENDER picks the renderer as in tests/browser.
//
// Each action is timed from the event's dispatch until the browser has
// painted the result ("painted" of bench/timing.mjs) and, for a view drawn
// in batches, until its last batch is drawn; the median of ROUNDS (7)
// rounds. Load is timed with and without JavaScript. Not a test: figures
// are noisy on a shared machine.
import { cleanup, launch, loadPlaywright, render } from '../tests/browser/helpers.mjs';
import { installTiming, median } from './timing.mjs';

// A random tree of n nodes: each new node hangs below a recent one (deep
// stacks), names from 5,000 functions with some recursion; own samples
// heavy-tailed, most nodes none.
function syntheticFolded(n) {
	let seed = 4242;
	const rand = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	const parent = new Int32Array(n);
	const name = new Array(n);
	const self = new Float64Array(n);
	name[0] = '';
	const kids = [new Map()];
	for (let k = 1; k < n; k++) {
		let p;
		do {
			p = Math.max(0, k - 1 - Math.floor(Math.pow(rand(), 1.5) * k));
		} while (kids[p] === undefined);
		let nm = rand() < 0.05 && p > 0 ? name[p] : `fn${Math.floor(Math.pow(rand(), 2) * 5000)}_${['read', 'parse', 'eval', 'alloc', 'hash'][Math.floor(rand() * 5)]}`;
		if (kids[p].has(nm)) nm = `${nm}_${k}`;
		kids[p].set(nm, k);
		kids.push(new Map());
		parent[k] = p;
		name[k] = nm;
		self[k] = rand() < 0.4 ? 1 + Math.floor(Math.pow(rand(), 30) * 100000000) : 0;
	}
	const lines = [];
	const path = new Array(n);
	for (let k = 1; k < n; k++) {
		path[k] = parent[k] === 0 ? name[k] : `${path[parent[k]]};${name[k]}`;
		if (self[k] > 0 || kids[k].size === 0) lines.push(`${path[k]} ${self[k] || 1}`);
	}
	return lines.join('\n') + '\n';
}

const nodes = Number(process.argv[2] || 200000);
const extra = process.argv.slice(3);
const ROUNDS = Number(process.env.ROUNDS || 7);
const pw = await loadPlaywright();
if (pw.skip) {
	console.log(`skipped: ${pw.skip}`);
	process.exit(0);
}
const t0 = Date.now();
const svg = render('views-bench', syntheticFolded(nodes), { extra });
const renderMs = Date.now() - t0;
const browser = await launch(pw.chromium);
try {
	// Load: to the load event (goto), and to the first frame after it;
	// without JavaScript too: what the browser alone needs for the
	// writer's frames, which no viewer change can make faster.
	const loads = { js: [], jsFrame: [], plain: [], index: [], data: [] };
	let page;
	for (let round = 0; round < ROUNDS; round++) {
		const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1240, height: 900 } });
		const p0 = await plain.newPage();
		const n0 = Date.now();
		await p0.goto(svg.url);
		loads.plain.push(Date.now() - n0);
		await plain.close();
		if (page) await page.close();
		page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
		const l0 = Date.now();
		await page.goto(svg.url);
		loads.js.push(Date.now() - l0);
		await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
		loads.jsFrame.push(Date.now() - l0);
		// the index of the frames and the decoded view data, built when idle
		const marks = await page.evaluate(() => new Promise((resolve) => {
			const poll = () => {
				const at = (name) => (performance.getEntriesByName(name)[0] || {}).startTime;
				if (at('fg-data') === undefined && performance.now() < 20000) setTimeout(poll, 20);
				else resolve([at('fg-index'), at('fg-data'), performance.getEntriesByType('navigation')[0].loadEventEnd]);
			};
			poll();
		}));
		loads.index.push(marks[0] - marks[2]);
		loads.data.push(marks[1] - marks[2]);
	}
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	const info = await page.evaluate(() => {
		const data = document.getElementById('fg-data');
		const m = data ? /nodes=([0-9]+)/.exec(data.textContent.slice(0, 200)) : null;
		return { frames: document.querySelectorAll('#frames rect').length, dataNodes: m ? Number(m[1]) : 0,
			bytes: new XMLSerializer().serializeToString(document).length };
	});
	await installTiming(page);
	await page.evaluate(() => {
		// the hide prompt answers fgAnswer
		window.prompt = () => window.fgAnswer;
		// the function of the 20th widest frame; a frame with narrow children left out
		const rects = Array.from(document.querySelectorAll('#frames rect'))
			.sort((a, b) => b.getAttribute('width') - a.getAttribute('width'));
		window.fgHover = rects[Math.min(20, rects.length - 1)];
		window.fgDeep = rects.find((r) => Number(r.getAttribute('width')) < 2 && Number(r.getAttribute('width')) > 0.5) || rects[rects.length - 1];
	});
	// [painted, complete] per round: complete is when a view drawn in
	// batches has its last frame (the same as painted for other actions).
	const time = async (setup, action, undo) => {
		const out = [];
		for (let round = 0; round < ROUNDS; round++) {
			out.push(await page.evaluate(async ([s, a, u]) => {
				/* eslint-disable no-eval */
				await eval(s);
				await window.fgSettle();
				const ms = await window.fgTime(() => eval(a));
				const complete = Math.max(ms[1], await window.fgComplete());
				await window.fgSettle();
				await eval(u);
				await window.fgComplete();
				await window.fgSettle();
				return [ms[1], complete];
			}, [setup, action, undo]));
		}
		return out;
	};
	const results = {
		'table (t)': await time('0', 'fgKey("t")', 'fgKey("t")'),
		'function view (hover, f)': await time(
			'fgHover.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}))', 'fgKey("f")', 'fgKey("Escape")'),
		'hide toggle (h, /alloc/)': await time('window.fgAnswer = "alloc"', 'fgKey("h")', 'window.fgAnswer = ""; fgKey("h")'),
		'recursion toggle (r)': await time('0', 'fgKey("r")', 'fgKey("r")'),
		'weight order (w)': await time('0', 'fgKey("w")', 'fgKey("w")'),
		'deep zoom (click a 0.5-2 px frame)': await time('0',
			'fgDeep.dispatchEvent(new MouseEvent("click", {bubbles: true, button: 0}))', 'fgKey("Escape")'),
	};
	console.log(`profile: ${nodes} nodes; SVG ${info.bytes} bytes by fg-render in ${renderMs} ms; ` +
		`${info.frames} drawn frames, ${info.dataNodes} nodes of view data`);
	const list = (v) => v.map((x) => x.toFixed(0)).join(' ');
	console.log(`load to interactive (goto + first frame), median of ${ROUNDS}: ${median(loads.jsFrame)} ms (${list(loads.jsFrame)})`);
	console.log(`  goto alone ${median(loads.js)} ms; without JavaScript (the browser alone) ${median(loads.plain)} ms (${list(loads.plain)})`);
	if (loads.index.every((x) => !isNaN(x))) {
		console.log(`  after the load event, when idle: frame index built by ${median(loads.index).toFixed(0)} ms, ` +
			`view data decoded by ${median(loads.data).toFixed(0)} ms`);
	}
	for (const [what, v] of Object.entries(results)) {
		const painted = v.map((x) => x[0]);
		const complete = v.map((x) => x[1]);
		const batches = complete.some((c, k) => c > painted[k]) ? `; complete (last batch drawn) ${median(complete).toFixed(1)} ms` : '';
		console.log(`${what}: painted, median ${median(painted).toFixed(1)} ms (${list(painted)})${batches}`);
	}
	if (errors.length) {
		console.log(`page errors: ${errors.join('; ')}`);
		process.exitCode = 1;
	}
} finally {
	await browser.close();
	cleanup();
}
