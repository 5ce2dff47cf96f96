// bench/zoom.mjs - how long the embedded viewer takes to zoom a graph of
// 20,000 frames in headless Chromium.
//
// usage: node bench/zoom.mjs [FRAMES]             a synthetic graph (20000)
//        node bench/zoom.mjs FILE.folded [OPTION...] a real profile, rendered
//                                                  with fg-render OPTIONs
// FG_RENDER picks the renderer as in tests/browser; needs /usr/bin/chromium
// and tests/browser/node_modules.
//
// Each of 10 rounds clicks a different frame of the unzoomed graph (a click
// event dispatched on its rect, so the browser's own hit testing is not
// measured), then restores the graph with Esc. The frames are the 1st, 2nd,
// 4th, ..., 512th widest below the root: from big subtrees to small ones. Reported, as medians:
// "handler": the click handler alone (performance.now() around
// dispatchEvent); "to paint": until the browser has run style, layout and
// paint for the new view (the next animation frame plus a task); and the
// same two figures for the reset.
import { readFileSync } from 'node:fs';
import { bigFolded, cleanup, launch, loadPlaywright, readFrames, render, renderer } from '../tests/browser/helpers.mjs';

const arg = process.argv[2] || '20000';
const fromFile = !/^[0-9]+$/.test(arg);
const folded = fromFile ? readFileSync(arg, 'utf8') : bigFolded(Number(arg));
const opts = fromFile ? { extra: process.argv.slice(3) } : {};
const pw = await loadPlaywright();
if (pw.skip) {
	console.log(`skipped: ${pw.skip}`);
	process.exit(0);
}
const t0 = Date.now();
const svg = render('bench', folded, opts);
const renderMs = Date.now() - t0;
const browser = await launch(pw.chromium);
try {
	const page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	const l0 = Date.now();
	await page.goto(svg.url);
	const loadMs = Date.now() - l0;
	const count = (await readFrames(page)).length;
	const result = await page.evaluate(async () => {
		const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
		const rects = Array.from(document.querySelectorAll('#frames rect'))
			.sort((a, b) => b.getAttribute('width') - a.getAttribute('width'));
		const targets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((k) => rects[Math.min(k, rects.length - 1)]);
		const out = { handler: [], paint: [], resetHandler: [], resetPaint: [], shown: [] };
		await painted();
		for (const rect of targets) {
			let t = performance.now();
			rect.dispatchEvent(new MouseEvent('click', { bubbles: true, button: 0 }));
			out.handler.push(performance.now() - t);
			await painted();
			out.paint.push(performance.now() - t);
			out.shown.push(document.querySelectorAll('#frames rect').length -
				document.querySelectorAll('#frames .hide').length);
			t = performance.now();
			document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
			out.resetHandler.push(performance.now() - t);
			await painted();
			out.resetPaint.push(performance.now() - t);
		}
		return out;
	});
	const median = (a) => {
		const s = [...a].sort((x, y) => x - y);
		return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
	};
	const ms = (v) => `${v.toFixed(1)} ms`;
	console.log(`frames: ${count} (SVG by ${renderer().kind} in ${renderMs} ms, page load ${loadMs} ms)`);
	console.log(`zoom, median of ${result.handler.length} clicks: handler ${ms(median(result.handler))}, ` +
		`to paint ${ms(median(result.paint))} (max ${ms(Math.max(...result.paint))})`);
	console.log(`reset (Esc), median: handler ${ms(median(result.resetHandler))}, to paint ${ms(median(result.resetPaint))}`);
	console.log(`frames shown per zoom: ${result.shown.join(' ')}`);
	console.log(`per click, handler/to paint ms: ${result.handler.map((h, i) => `${h.toFixed(0)}/${result.paint[i].toFixed(0)}`).join(' ')}`);
	if (errors.length) {
		console.log(`page errors: ${errors.join('; ')}`);
		process.exitCode = 1;
	}
} finally {
	await browser.close();
	cleanup();
}
