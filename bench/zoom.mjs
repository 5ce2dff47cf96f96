// bench/zoom.mjs - how long the embedded viewer takes to zoom a graph of
// 20,000 frames in headless Chromium.
//
// usage: node bench/zoom.mjs [FRAMES]             a synthetic graph (20000)
//        node bench/zoom.mjs labels               20,000 frames that all have
//                                                  labels (40 stacks 500 deep)
//        node bench/zoom.mjs FILE.folded [OPTION...] a real profile, rendered
//                                                  with fg-render OPTIONs
// FG_RENDER picks the renderer as in tests/browser; needs /usr/bin/chromium
// and tests/browser/node_modules.
//
// Each of 10 rounds clicks a different frame of the unzoomed graph (a click
// event dispatched on its rect, so the browser's own hit testing is not
// measured), then restores the graph with Esc. The frames are the 1st, 2nd,
// 4th, ..., 512th widest below the root: from big subtrees to small ones.
// Reported, as medians, all from the moment the event is dispatched
// (bench/timing.mjs): "handler", "painted" and "next frame", and the same
// for the reset.
import { readFileSync } from 'node:fs';
import { bigFolded, cleanup, launch, loadPlaywright, readFrames, render, renderer } from '../tests/browser/helpers.mjs';
import { installTiming, median } from './timing.mjs';

// 40 stacks 500 frames deep: every frame is about 30 px wide, so each has
// a label (the worst case for labels).
function labelledFolded() {
	const out = [];
	for (let c = 0; c < 40; c++) {
		out.push(`${Array.from({ length: 500 }, (_, d) => `f${c}_${d}`).join(';')} 10`);
	}
	return out.join('\n') + '\n';
}

const arg = process.argv[2] || '20000';
const fromFile = !/^([0-9]+|labels)$/.test(arg);
const folded = fromFile ? readFileSync(arg, 'utf8') : arg === 'labels' ? labelledFolded() : bigFolded(Number(arg));
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
	// In the page: the timing helper (bench/timing.mjs) and the targets.
	await installTiming(page);
	await page.evaluate(async () => {
		const rects = Array.from(document.querySelectorAll('#frames rect'))
			.sort((a, b) => b.getAttribute('width') - a.getAttribute('width'));
		window.fgTargets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((k) => rects[Math.min(k, rects.length - 1)]);
		await window.fgSettle();
	});
	const result = { handler: [], paint: [], frame: [], resetHandler: [], resetPaint: [], resetFrame: [], shown: [] };
	for (let round = 0; round < 10; round++) {
		const zoom = await page.evaluate(async (k) => {
			const r = await window.fgTime(() =>
				window.fgTargets[k].dispatchEvent(new MouseEvent('click', { bubbles: true, button: 0 })));
			await window.fgSettle();
			return r;
		}, round);
		result.handler.push(zoom[0]);
		result.paint.push(zoom[1]);
		result.frame.push(zoom[2]);
		result.shown.push((await readFrames(page)).filter((f) => f.shown).length);
		const reset = await page.evaluate(async () => {
			await window.fgSettle();
			const r = await window.fgTime(() =>
				document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
			await window.fgSettle();
			return r;
		});
		result.resetHandler.push(reset[0]);
		result.resetPaint.push(reset[1]);
		result.resetFrame.push(reset[2]);
	}
	const ms = (v) => `${v.toFixed(1)} ms`;
	console.log(`frames: ${count} (SVG by ${renderer().kind} in ${renderMs} ms, page load ${loadMs} ms)`);
	console.log(`zoom, median of ${result.handler.length} clicks: handler ${ms(median(result.handler))}, ` +
		`painted ${ms(median(result.paint))} (max ${ms(Math.max(...result.paint))}), ` +
		`next frame ${ms(median(result.frame))} (max ${ms(Math.max(...result.frame))})`);
	console.log(`reset (Esc), median: handler ${ms(median(result.resetHandler))}, painted ${ms(median(result.resetPaint))}, ` +
		`next frame ${ms(median(result.resetFrame))}`);
	console.log(`frames shown per zoom: ${result.shown.join(' ')}`);
	console.log(`per click, handler/painted/next frame ms: ${result.handler.map((h, i) =>
		`${h.toFixed(0)}/${result.paint[i].toFixed(0)}/${result.frame[i].toFixed(0)}`).join(' ')}`);
	if (errors.length) {
		console.log(`page errors: ${errors.join('; ')}`);
		process.exitCode = 1;
	}
} finally {
	await browser.close();
	cleanup();
}
