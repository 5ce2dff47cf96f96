// viewer.test.mjs - the embedded viewer (src/viewer/*.js) in headless
// Chromium, driven the way a person uses it: mouse, keyboard, prompt, URL.
// Run: node --test tests/browser/   (skips when Chromium or node_modules
// is missing). Expected values come from the folded input, not the viewer.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
	bigFolded, centreOf, cleanup, fgDiff, framesAtPoints, launch, loadPlaywright, marginShots, matchedSamples,
	parseFolded, pathTotals, readFrames, render, renderer, sumCounts,
} from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'out');
const SEARCH_FILL = 'rgb(230,0,230)';
const WIDTH = 1200;
const FULL = WIDTH - 20;

const FANCY = '\u{1D523}\u{1D51E}\u{1D52B}\u{1D520}\u{1D536}_' + '\u{1D52B}\u{1D51E}\u{1D52A}\u{1D522}'.repeat(8);
const LONG = 'Compute_helper_with_a_rather_long_name_that_gets_truncated';
const FOLDED = [
	'main;init;load_config 5',
	'main;init;parse_args 3',
	'main;run;compute;kernel_alpha 40',
	'main;run;compute;kernel_beta 25',
	'main;run;compute 10',
	'main;run;io;read_block 8',
	'main;run;io;write_block 6',
	`main;run;${LONG} 4`,
	'main;run;std::vector<int>::push_back(int) 3',
	'main 2',
	'background;sleep 12',
	'background;poll;epoll_wait 9',
	`background;poll;${FANCY} 1`,
].join('\n') + '\n';
const LINES = parseFolded(FOLDED);
const TOTAL = sumCounts(LINES);
const { total: PATH_TOTAL, self: PATH_SELF } = pathTotals(LINES);

const pw = await loadPlaywright();
let browser;

// "%.2f" as printf does it: exact binary ties round to even (3.125 -> 3.12),
// where toFixed would round them up.
function fmtPct(n, d) {
	const v = 100 * n / d;
	const exact = v.toFixed(100);
	const m = /^(\d+)\.(\d\d)(5)(0*)$/.exec(exact);
	if (!m) return v.toFixed(2);
	const cents = Number(m[1] + m[2]);
	const even = cents % 2 === 0 ? cents : cents + 1;
	return (even / 100).toFixed(2);
}

function near(actual, expected, tolerance, what) {
	assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

function byName(frames, name) {
	const f = frames.find((x) => x.name === name);
	assert.ok(f, `frame ${name} exists`);
	return f;
}

// Opens a page, runs body(page, ctx), and fails if the page raised any error.
async function withPage(url, body, { colorScheme = 'light' } = {}) {
	const context = await browser.newContext({ viewport: { width: WIDTH + 40, height: 700 }, colorScheme });
	const page = await context.newPage();
	const errors = [];
	const prompts = [];
	const answers = [];
	page.on('pageerror', (e) => errors.push(e.message));
	page.on('dialog', async (d) => {
		prompts.push({ type: d.type(), message: d.message(), value: d.defaultValue() });
		if (d.type() === 'prompt' && answers.length) await d.accept(answers.shift());
		else await d.dismiss();
	});
	try {
		await page.goto(url);
		await body(page, { prompts, answers });
		assert.deepEqual(errors, [], 'no page errors');
	} finally {
		await context.close();
	}
}

async function hover(page, name) {
	const c = await centreOf(page, name);
	await page.mouse.move(c.x, c.y);
}

// options: {button, modifiers: ['Control', 'Alt', ...]}
async function clickFrame(page, name, { button = 'left', modifiers = [] } = {}) {
	const c = await centreOf(page, name);
	for (const m of modifiers) await page.keyboard.down(m);
	await page.mouse.click(c.x, c.y, { button });
	for (const m of modifiers) await page.keyboard.up(m);
}

async function details(page) {
	return page.textContent('#details');
}

async function search(page, ctx, term, key = 'Control+f') {
	ctx.answers.push(term);
	await page.keyboard.press(key);
	assert.equal(ctx.answers.length, 0, `the prompt was shown for ${key}`);
}

// Labels drawn on frames are the name or a prefix of it plus "..", drawn
// unstretched at the frame's left edge + 3 and inside the frame, with the
// frame's opacity; a frame wide enough for its whole name shows it.
async function assertLabelsFit(page, frames) {
	frames = frames || await readFrames(page);
	const bad = [];
	for (const f of frames) {
		if (f.label === '') {
			if (f.shown && f.name.length * 12 <= f.width - 4) bad.push(`${f.name} has no label although it fits`);
			continue;
		}
		const { name, label } = f;
		const prefix = label.endsWith('..') && label !== name ? label.slice(0, -2) : label;
		const last = prefix.charCodeAt(prefix.length - 1);
		if (!name.startsWith(prefix)) bad.push(`${label} is not a prefix of ${name}`);
		else if (last >= 0xd800 && last <= 0xdbff) bad.push(`${label} ends inside a surrogate pair`);
		else if (f.labelWidth > f.width - 2) bad.push(`${label} (${f.labelWidth} px) overflows ${f.width} px`);
		if (name.length * 12 <= f.width - 4 && label !== name) bad.push(`${label} is cut although ${name} fits`);
		if (Math.abs(f.labelX - f.x - 3) > 0.02) bad.push(`${label} is at ${f.labelX}, not at ${f.x} + 3`);
		if (f.labelScale !== '1 0 0 1') bad.push(`${label} is drawn transformed (${f.labelScale})`);
		if (Math.abs(f.labelOpacity - f.opacity) > 1e-3) bad.push(`${label} has opacity ${f.labelOpacity}, its frame ${f.opacity}`);
	}
	assert.deepEqual(bad, []);
}

// Zoomed to `name` (its first frame in document order): it spans the full
// width, its ancestors are faded and span the full width, frames outside
// its subtree are not drawn, its descendants are scaled. Which frame is
// which is decided from the unzoomed geometry: ancestors are the frames of
// shallower rows whose interval holds the target, the subtree the frames
// of deeper rows inside its interval. Geometry is as drawn (readFrames).
function assertZoomed(before, after, name) {
	const target = byName(before, name);
	const root = byName(before, 'all');
	const up = root.y > target.y ? 1 : -1;
	const deeper = (a, b) => up * (b.y - a.y) > 0.5;
	const eps = 0.05;
	const full = root.width; // the graph area: the root spans it
	const ratio = full / target.width;
	for (let i = 0; i < before.length; i++) {
		const b = before[i];
		const a = after[i];
		assert.equal(a.name, b.name);
		const inside = b.x >= target.x - eps && b.x + b.width <= target.x + target.width + eps;
		const holds = b.x <= target.x + eps && b.x + b.width >= target.x + target.width - eps;
		if (deeper(target, b) && holds) {
			assert.match(a.cls, /\bparent\b/, `${a.name} is a faded ancestor`);
			assert.ok(a.shown, `${a.name} is drawn`);
			assert.ok(a.opacity < 1, `${a.name} is faded (opacity ${a.opacity})`);
			near(a.x, 10, eps, `${a.name} x`);
			near(a.width, full, eps, `${a.name} width`);
			near(a.y, b.y, eps, `${a.name} y`);
		} else if (b === target || (deeper(b, target) && inside)) {
			assert.doesNotMatch(a.cls, /\b(hide|parent)\b/, `${a.name} is shown`);
			assert.ok(a.shown || b.width * ratio < eps, `${a.name} is drawn`);
			assert.equal(a.opacity, 1, `${a.name} is not faded`);
			near(a.x, 10 + (b.x - target.x) * ratio, eps, `${a.name} x`);
			near(a.width, b.width * ratio, eps, `${a.name} width`);
			near(a.y, b.y, eps, `${a.name} y`);
		} else {
			assert.ok(!a.shown, `${a.name} is not drawn (x ${a.x}, width ${a.width})`);
			assert.equal(a.label, '', `${a.name} has no label`);
		}
	}
	const t = after[before.indexOf(target)];
	near(t.x, 10, eps, `${name} x`);
	near(t.width, full, eps, `${name} width`);
}

// The mouse finds only the zoomed subtree and its ancestors, and nothing
// in the margins.
async function assertHits(page, before, name) {
	const target = byName(before, name);
	const eps = 0.05;
	const allowed = new Set(before.filter((b) => (b.x >= target.x - eps && b.x + b.width <= target.x + target.width + eps) ||
		(b.x <= target.x + eps && b.x + b.width >= target.x + target.width - eps)).map((b) => b.name));
	const hits = await framesAtPoints(page);
	assert.deepEqual(hits.inMargin, [], 'no frame in the margins');
	assert.ok(hits.inArea.includes(name), `${name} is found by the mouse`);
	assert.deepEqual(hits.inArea.filter((n) => !allowed.has(n)), [], 'only the subtree and its ancestors are found');
}

function assertRestored(before, after) {
	const key = (f) => [f.name, f.x, f.y, f.width, f.shown, f.cls, f.label, f.labelX, f.opacity];
	assert.deepEqual(after.map(key), before.map(key));
}

async function matchedPercent(page) {
	const text = await page.textContent('#matched');
	const m = /^Matched: ([0-9.]+)%/.exec(text);
	assert.ok(m, `"${text}" shows a percentage`);
	return { value: m[1], text };
}

function expectedMatched(re, lines = LINES) {
	const p = 100 * matchedSamples(lines, re) / sumCounts(lines);
	return p === 100 ? '100' : p.toFixed(1);
}

// The page's URL once the viewer has written its state: it does that after
// the frame that shows a change (history.replaceState is slow), so this
// waits for the next frame and two tasks.
async function pageUrl(page) {
	return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
		setTimeout(() => setTimeout(() => resolve(window.location.href), 0), 0))));
}

function hasParam(url, key) {
	return new URL(url).searchParams.has(key);
}

if (pw.skip) {
	test('browser tests of the viewer', { skip: pw.skip }, () => {});
} else {
	describe(`viewer in Chromium (SVG from ${renderer().kind})`, () => {
		let normal;
		let inverted;
		let reversed;
		before(async () => {
			browser = await launch(pw.chromium);
			mkdirSync(outDir, { recursive: true });
			normal = render('normal', FOLDED, { title: 'Viewer test' });
			inverted = render('inverted', FOLDED, { inverted: true });
			reversed = render('reversed', FOLDED, { reverse: true });
		});
		after(async () => {
			if (browser) await browser.close();
			cleanup();
		});

		test('the frames read back match the folded input', async () => {
			await withPage(normal.url, async (page) => {
				const frames = await readFrames(page);
				const root = byName(frames, 'all');
				assert.equal(root.title, `all (${TOTAL} samples, 100%)`);
				near(root.width, FULL, 0.05, 'root width');
				for (const [path, n] of PATH_TOTAL) {
					const name = path.split(';').pop();
					const f = byName(frames, name);
					assert.equal(f.title, `${name} (${n} samples, ${fmtPct(n, TOTAL)}%)`);
				}
				assert.equal(frames.length, PATH_TOTAL.size + 1);
			});
		});

		test('the viewer leaks no globals', async () => {
			// The same SVG without its script is the baseline.
			const bare = normal.file.replace(/\.svg$/, '-bare.svg');
			writeFileSync(bare, readFileSync(normal.file, 'utf8').replace(/<script>[\s\S]*<\/script>/, ''));
			const blank = await browser.newPage();
			await blank.goto(pathToFileURL(bare).href);
			const builtins = new Set(await blank.evaluate(() => Object.getOwnPropertyNames(window)));
			await blank.close();
			await withPage(normal.url, async (page) => {
				const own = await page.evaluate(() => Object.getOwnPropertyNames(window));
				assert.deepEqual(own.filter((n) => !builtins.has(n)), []);
			});
		});

		test('hover shows the details line with percentages and self samples', async () => {
			await withPage(normal.url, async (page) => {
				for (const path of ['main;run;compute', 'main', 'background', 'main;run;compute;kernel_alpha']) {
					const name = path.split(';').pop();
					const n = PATH_TOTAL.get(path);
					const self = PATH_SELF.get(path) || 0;
					await hover(page, name);
					const text = await details(page);
					assert.ok(text.startsWith(`Function: ${name} (${n} samples, ${fmtPct(n, TOTAL)}%)`), text);
					assert.ok(text.includes(`self: ${self} samples (${fmtPct(self, TOTAL)}%)`), text);
					assert.ok(!text.includes('of zoom'), 'no zoom share when not zoomed');
				}
				// The native tooltip is the frame's <title>.
				const title = await page.evaluate(() => document.querySelector('#frames title').textContent);
				assert.match(title, / \(\d+ samples, [0-9.]+%\)$/);
				await page.mouse.move(5, 5);
				assert.equal(await details(page), ' ', 'mouse-out clears the details');
			});
		});

		test('click zooms: full width, ancestors faded, others hidden, labels re-fitted', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				const margins = await marginShots(page);
				assert.equal(await page.getAttribute('#unzoom', 'class'), 'hide');
				await clickFrame(page, 'compute');
				const after = await readFrames(page);
				assertZoomed(before, after, 'compute');
				await assertHits(page, before, 'compute');
				const zoomedMargins = await marginShots(page);
				assert.ok(margins.every((m, i) => m.equals(zoomedMargins[i])), 'nothing is drawn in the margins');
				// The hover outline keeps its width: it is not scaled with the frames.
				assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#frames :hover > rect')).vectorEffect),
					'non-scaling-stroke');
				assert.doesNotMatch(await page.getAttribute('#unzoom', 'class'), /hide/);
				assert.notEqual(await page.$eval('#unzoom', (e) => getComputedStyle(e).display), 'none');
				assert.equal(byName(after, 'kernel_alpha').label, 'kernel_alpha');
				await assertLabelsFit(page);
				// Details in a zoom include the share of the zoomed frame.
				await hover(page, 'kernel_alpha');
				const text = await details(page);
				assert.ok(text.includes(`${fmtPct(40, 75)}% of zoom`), text);
				// The zoom is in the URL as the frame's original x and y.
				const url = new URL(await pageUrl(page));
				const target = byName(before, 'compute');
				assert.equal(Number(url.searchParams.get('x')), target.x);
				assert.equal(Number(url.searchParams.get('y')), target.y);
			});
		});

		test('zooming a truncated leaf shows its whole name; astral names cut on pair boundaries', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				assert.ok(byName(before, LONG).label.endsWith('..'), 'truncated at first');
				await clickFrame(page, LONG);
				assert.equal(byName(await readFrames(page), LONG).label, LONG);
				await page.keyboard.press('Escape');
				assert.equal(byName(before, FANCY).label, '', 'too narrow for a label at first');
				await clickFrame(page, 'poll');
				const fancy = byName(await readFrames(page), FANCY);
				assert.ok(fancy.label.endsWith('..') && fancy.label.length > 2, `label "${fancy.label}" is created and cut`);
				await assertLabelsFit(page);
			});
		});

		test('zoom survives a reload of the URL', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				await clickFrame(page, 'io');
				const zoomed = await readFrames(page);
				await pageUrl(page);
				await page.reload();
				const reloaded = await readFrames(page);
				assertZoomed(before, reloaded, 'io');
				assert.deepEqual(reloaded, zoomed);
				// A link without x/y shows the whole graph; bogus values are ignored.
				await page.goto(normal.url + '?x=999&y=1&other=kept');
				assertRestored(before, await readFrames(page));
			});
		});

		test('Esc, Reset Zoom and a click on the root restore the graph', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				for (const how of ['Escape', 'Reset Zoom', 'root']) {
					await clickFrame(page, 'kernel_alpha');
					assertZoomed(before, await readFrames(page), 'kernel_alpha');
					if (how === 'Escape') await page.keyboard.press('Escape');
					else if (how === 'Reset Zoom') await page.click('#unzoom');
					else await clickFrame(page, 'all');
					assertRestored(before, await readFrames(page));
					assert.equal(await page.getAttribute('#unzoom', 'class'), 'hide', how);
					const url = await pageUrl(page);
					assert.ok(!hasParam(url, 'x') && !hasParam(url, 'y'), `${how}: URL has no zoom`);
				}
			});
		});

		test('clicking a faded ancestor zooms out to it', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				await clickFrame(page, 'kernel_beta');
				await clickFrame(page, 'run');
				assertZoomed(before, await readFrames(page), 'run');
				await assertLabelsFit(page);
			});
		});

		test('Ctrl-F search highlights the frames whose names match, Matched counts samples once', async () => {
			await withPage(normal.url, async (page, ctx) => {
				for (const term of ['^kernel', 'run|kernel', 'o', 'ompute']) {
					await search(page, ctx, term);
					const re = new RegExp(term);
					const frames = await readFrames(page);
					for (const f of frames) {
						assert.equal(f.fill, re.test(f.name) ? SEARCH_FILL : null, `${term}: ${f.name}`);
					}
					const m = await matchedPercent(page);
					assert.equal(m.value, expectedMatched(re), `Matched for ${term}`);
					assert.ok(m.text.includes(`/${term}/`), `the term is shown: ${m.text}`);
					assert.equal(new URL(await pageUrl(page)).searchParams.get('s'), term);
				}
				assert.match(ctx.prompts[0].message, /regexp/);
				assert.equal(ctx.prompts[1].value, '^kernel', 'the prompt offers the active term');
				// run|kernel: run holds both kernels, still 75% of the samples.
				assert.equal(expectedMatched(/run|kernel/), (100 * 96 / TOTAL).toFixed(1));
			});
		});

		test('issue 13 item 6: a ?s= regex that backtracks for hours does not freeze the page', async () => {
			// Ordinary names, many frames: (.|.)*! backtracks 2^length times on each.
			let folded = '';
			for (let i = 0; i < 200; i++) folded += `main;process_request_number_${i}_of_the_queue 1\n`;
			const g = render('redos', folded);
			for (const term of ['(.|.)*!', '(a+)+$', '.*.*.*.*.*!', '.?'.repeat(20) + '.{20}QQQ']) {
				await withPage(`${g.url}?s=${encodeURIComponent(term)}`, async (page) => {
					const start = Date.now();
					const alive = await Promise.race([
						page.evaluate(() => document.getElementById('matched').textContent),
						new Promise((resolve) => setTimeout(() => resolve(null), 3000)),
					]);
					assert.notEqual(alive, null, `the page answers with ?s=${term}`);
					assert.ok(Date.now() - start < 1000, `within a second (${Date.now() - start} ms)`);
				});
			}
			// A safe regex in the link still searches as a regex, a few
			// optional items too.
			await withPage(`${g.url}?s=${encodeURIComponent('number_1[0-9]_of')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 5\.0% for/);
			});
			await withPage(`${g.url}?s=${encodeURIComponent('number_1?5_of')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 1\.0% for/);
			});
		});

		test('a link\'s ?s= or ?hide= with several repeats or control characters: no freeze, no error', async () => {
			// Long names: .*.*! and .{0,900}.{0,900}! cost length^2 or more per name.
			let folded = '';
			for (let i = 0; i < 20; i++) folded += `main;std::vector<${'x'.repeat(800)}${i}>::push_back 1\n`;
			const g = render('redos-long', folded);
			for (const q of ['s=.*.*!', 's=x.*x.*!', 's=.{0,900}.{0,900}.{0,900}!',
				'hide=.{0,900}.{0,900}.{0,900}!', `hide=${encodeURIComponent('.?'.repeat(20) + '.{20}QQQ')}`,
				`s=${encodeURIComponent('.?'.repeat(20) + '.{20}QQQ')}`, 'hide=%01&table=1', 's=%01&table=1', 's=%EF%BF%BF&table=1']) {
				await withPage(`${g.url}?${q}`, async (page) => {
					const start = Date.now();
					const alive = await Promise.race([
						page.evaluate(() => document.getElementById('matched').textContent),
						new Promise((resolve) => setTimeout(() => resolve(null), 3000)),
					]);
					assert.notEqual(alive, null, `the page answers with ?${q}`);
					assert.ok(Date.now() - start < 1000, `?${q} within a second (${Date.now() - start} ms)`);
				});
			}
		});

		test('frames shown alike ("foo", "foo_[k]") each get their own self count and zoom', async () => {
			if (renderer().kind !== 'fg-render') return;
			const g = render('annotated', 'main;foo_[k];bar 4\nmain;foo;bar 3\nmain;foo_[k] 2\nmain;baz;foo_[j] 5\n');
			// The frame whose title starts with `title` (name and count).
			const at = (page, title) => page.evaluate((t) => {
				for (const rect of document.querySelectorAll('#frames rect')) {
					if (rect.parentNode.querySelector('title').textContent.startsWith(t)) {
						const b = rect.getBoundingClientRect();
						return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
					}
				}
				return null;
			}, title);
			await withPage(g.url, async (page) => {
				await page.mouse.move(1, 1); // (the view data is read at the first event)
				await page.waitForTimeout(100);
				for (const [title, self] of [['foo (6 ', 2], ['foo (3 ', 0], ['bar (4 ', 4], ['bar (3 ', 3], ['foo (5 ', 5]]) {
					const c = await at(page, title);
					assert.ok(c, title);
					await page.mouse.move(c.x, c.y);
					const text = await details(page);
					assert.ok(text.startsWith(`Function: ${title}`), text);
					assert.ok(text.includes(`| self: ${self} samples`), `${title}: ${text}`);
				}
			});
			// A zoom on foo_[k] (no children) must not reveal the other foo's
			// children, too narrow to be drawn.
			let folded = 'main;other 100000\nmain;foo 20000\nmain;foo_[k] 30000\n';
			for (let i = 1; i <= 40; i++) folded += `main;foo;tiny${i} 6\n`;
			const z = render('annotated-zoom', folded);
			await withPage(z.url, async (page) => {
				await page.mouse.move(1, 1);
				await page.waitForTimeout(100);
				const c = await at(page, 'foo (30,000 ');
				await page.mouse.click(c.x, c.y);
				const drawn = await page.evaluate(() => [...document.querySelectorAll('#fg-view title')].map((t) => t.textContent));
				assert.ok(!drawn.some((t) => t.startsWith('tiny')), `no tiny frame: ${drawn.slice(0, 5)}`);
				await page.keyboard.press('Escape');
				const other = await at(page, 'foo (20,240 ');
				await page.mouse.click(other.x, other.y);
				const revealed = await page.evaluate(() => [...document.querySelectorAll('#fg-view title')].map((t) => t.textContent));
				assert.ok(revealed.some((t) => t.startsWith('tiny1 (6 ')), 'the other foo reveals its children');
			});
		});

		test('issue 13 item 7: a --countname with " (" does not break names or search', async () => {
			const g = renderer().kind === 'fg-render' ? render('countname', 'main;work 30\nmain;idle (x) 10\n',
				{ extra: ['--countname', 'samples (of 10 ms)'] }) : null;
			if (g === null) return;
			await withPage(`${g.url}?s=${encodeURIComponent('^work$')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 75\.0% for/);
			});
			await withPage(`${g.url}?s=${encodeURIComponent('^idle \\(x\\)$')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 25\.0% for/);
			});
		});

		test('search matches names only, "/" and F3 open it, the clear control clears it', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await search(page, ctx, 'samples', '/');
				assert.equal((await matchedPercent(page)).value, '0.0', 'the title suffix is not searched');
				assert.ok((await readFrames(page)).every((f) => f.fill === null));
				await search(page, ctx, 'all', 'F3');
				assert.equal((await matchedPercent(page)).value, '100');
				await page.click('#clear-search');
				assert.ok((await readFrames(page)).every((f) => f.fill === null), 'fills removed');
				assert.equal(await page.textContent('#matched'), ' ');
				assert.ok(!hasParam(await pageUrl(page), 's'));
				// Clicking Search opens the prompt too; cancelling changes nothing.
				await page.click('#search');
				assert.equal(ctx.prompts.length, 3);
				assert.equal(await page.textContent('#matched'), ' ');
			});
		});

		test('an invalid regex is searched as literal text and raises no error', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await search(page, ctx, 'push_back(');
				const frames = await readFrames(page);
				assert.deepEqual(frames.filter((f) => f.fill === SEARCH_FILL).map((f) => f.name),
					['std::vector<int>::push_back(int)']);
				assert.equal((await matchedPercent(page)).value, expectedMatched(/push_back\(/));
				for (const term of ['[', '(?<', '*', '\\', 'a{2,1}']) {
					await search(page, ctx, term);
					await matchedPercent(page);
				}
			});
		});

		test('Ctrl-I and the ic button toggle ignore-case', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await search(page, ctx, 'COMPUTE');
				assert.equal((await matchedPercent(page)).value, '0.0');
				await page.keyboard.press('Control+i');
				assert.match(await page.getAttribute('#ignorecase', 'class'), /\bshow\b/);
				const frames = await readFrames(page);
				assert.deepEqual(frames.filter((f) => f.fill === SEARCH_FILL).map((f) => f.name).sort(),
					['compute', LONG].sort());
				assert.equal((await matchedPercent(page)).value, expectedMatched(/COMPUTE/i));
				assert.match(await page.textContent('#matched'), /\/COMPUTE\/i/);
				await search(page, ctx, 'KERNEL_A');
				assert.match(ctx.prompts.at(-1).message, /ignoring case/);
				assert.equal((await matchedPercent(page)).value, expectedMatched(/KERNEL_A/i));
				await page.click('#ignorecase');
				assert.doesNotMatch(await page.getAttribute('#ignorecase', 'class') || '', /\bshow\b/);
				assert.equal((await matchedPercent(page)).value, '0.0');
			});
		});

		test('search survives a reload and applies on top of a zoom', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await clickFrame(page, 'compute');
				await search(page, ctx, 'kernel');
				const before = await readFrames(page);
				await pageUrl(page);
				await page.reload();
				assert.deepEqual(await readFrames(page), before);
				assert.equal((await matchedPercent(page)).value, expectedMatched(/kernel/), 'of the whole graph');
			});
		});

		test('ignoring case is in the URL: a reload or a link matches the same frames', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await search(page, ctx, 'KERNEL');
				assert.match(await page.textContent('#matched'), /^Matched: 0% |\(0 frames\)/);
				await page.keyboard.press('Control+i');
				const url = new URL(await pageUrl(page));
				assert.equal(url.searchParams.get('ic'), '1');
				assert.equal((await matchedPercent(page)).value, expectedMatched(/kernel/i));
				await page.reload();
				assert.equal((await matchedPercent(page)).value, expectedMatched(/kernel/i), 'after a reload');
				assert.equal(await page.evaluate(() => document.getElementById('ignorecase').classList.contains('show')), true);
				await page.keyboard.press('Control+i');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('ic'), null, 'off: gone from the URL');
			});
		});

		test('n / N and the arrow buttons zoom to the next and previous match', async () => {
			await withPage(normal.url, async (page, ctx) => {
				const before = await readFrames(page);
				await search(page, ctx, '_block|kernel');
				const order = ['kernel_alpha', 'kernel_beta', 'read_block', 'write_block'];
				for (const name of [...order, order[0]]) {
					await page.keyboard.press('n');
					assertZoomed(before, await readFrames(page), name);
					assert.match(byName(await readFrames(page), name).cls, /\bfocus\b/);
				}
				await page.keyboard.press('Shift+N');
				assertZoomed(before, await readFrames(page), 'write_block');
				assert.match(await page.textContent('#matched'), /\(4 of 4 frames\)/);
				await page.click('#prev-match');
				assertZoomed(before, await readFrames(page), 'read_block');
				await page.click('#next-match');
				assertZoomed(before, await readFrames(page), 'write_block');
				// Highlights stay on every match while zooming.
				const fills = (await readFrames(page)).filter((f) => f.fill === SEARCH_FILL).map((f) => f.name);
				assert.deepEqual(fills.sort(), [...order].sort());
			});
		});

		test('--minwidth 0: n passes over a match drawn 0 px wide and zooms to the one with a width', async () => {
			// main;P;c is 1 sample in 1,000,001: its rect is 0 px wide.
			const folded = ['main;P;c 1', 'main;Q;c 400000', 'main;Q;k 300000', 'main;R 300000'].join('\n') + '\n';
			const zero = render('zero-width-match', folded, { extra: ['--minwidth', '0'] });
			await withPage(`${zero.url}?s=^c$`, async (page) => {
				const widths = await page.evaluate(() => [...document.querySelectorAll('#frames rect')]
					.filter((r) => r.parentNode.querySelector('title').textContent.startsWith('c ('))
					.map((r) => Number(r.getAttribute('width'))).sort((a, b) => a - b));
				assert.equal(widths.length, 2, 'two frames named c');
				assert.equal(widths[0], 0, 'one is drawn 0 px wide');
				for (let k = 0; k < 2; k++) {
					await page.keyboard.press('n');
					const z = await page.evaluate(() => {
						const f = document.querySelector('#frames .focus');
						const m = /^matrix\(([^,]+),/.exec(document.getElementById('frames').getAttribute('transform') || '');
						return { ratio: m ? Number(m[1]) : NaN, title: f ? f.querySelector('title').textContent : null,
							width: f ? Number(f.querySelector('rect').getAttribute('width')) : NaN };
					});
					assert.match(String(z.title), /^c \(400,000 /, 'the focus is on the c with a width');
					assert.ok(Math.abs(z.ratio - FULL / widths[1]) < 1e-9, `zoomed to it (ratio ${z.ratio})`);
				}
			});
		});

		test('a long term is shortened in #matched between characters, not inside one beyond U+FFFF', async () => {
			const term = `a${'\u{1F600}'.repeat(25)}`;
			await withPage(`${normal.url}?s=${encodeURIComponent(term)}`, async (page) => {
				const text = await page.textContent('#matched');
				assert.match(text, /^Matched: 0\.0% for \/a(\u{1F600})+\.\.\/ /u, text);
				assert.doesNotMatch(text, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, 'no half character');
			});
		});

		test('arrow keys move a visible focus, Enter zooms', async () => {
			await withPage(normal.url, async (page) => {
				const before = await readFrames(page);
				const focused = async () => {
					const names = (await readFrames(page)).filter((f) => /\bfocus\b/.test(f.cls)).map((f) => f.name);
					assert.equal(names.length, 1, `one focused frame: ${names}`);
					return names[0];
				};
				await page.keyboard.press('ArrowDown');
				assert.equal(await focused(), 'all');
				const stroke = await page.evaluate(() => getComputedStyle(document.querySelector('#frames .focus rect')).stroke);
				assert.notEqual(stroke, 'none', 'the focus is outlined');
				await page.keyboard.press('ArrowUp');
				assert.equal(await focused(), 'background');
				await page.keyboard.press('ArrowRight');
				assert.equal(await focused(), 'main');
				await page.keyboard.press('ArrowUp');
				assert.equal(await focused(), 'init');
				await page.keyboard.press('ArrowRight');
				assert.equal(await focused(), 'run');
				assert.ok((await details(page)).startsWith('Function: run (96 samples'), 'details follow the focus');
				await page.keyboard.press('ArrowUp');
				assert.equal(await focused(), LONG);
				await page.keyboard.press('ArrowLeft');
				assert.equal(await focused(), 'parse_args', 'Left goes on to the cousin');
				await page.keyboard.press('ArrowRight');
				await page.keyboard.press('ArrowRight');
				assert.equal(await focused(), 'compute');
				await page.keyboard.press('Enter');
				assertZoomed(before, await readFrames(page), 'compute');
				// Zoomed: the hidden neighbours are skipped, the parent is reachable.
				await page.keyboard.press('ArrowRight');
				assert.equal(await focused(), 'compute');
				await page.keyboard.press('ArrowDown');
				assert.equal(await focused(), 'run');
				await page.keyboard.press('Escape');
				assertRestored(before.map((f) => ({ ...f, cls: f.name === 'run' ? 'focus' : f.cls })), await readFrames(page));
			});
		});

		test('inverted graph: zoom, restore, search and arrow directions', async () => {
			await withPage(inverted.url, async (page, ctx) => {
				const before = await readFrames(page);
				assert.ok(byName(before, 'all').y < byName(before, 'main').y, 'root on top');
				await hover(page, 'compute');
				assert.ok((await details(page)).startsWith(`Function: compute (75 samples, ${fmtPct(75, TOTAL)}%)`));
				assert.ok((await details(page)).includes('self: 10 samples'));
				await clickFrame(page, 'compute');
				assertZoomed(before, await readFrames(page), 'compute');
				await assertHits(page, before, 'compute');
				await assertLabelsFit(page);
				await pageUrl(page);
				await page.reload();
				assertZoomed(before, await readFrames(page), 'compute');
				await page.keyboard.press('Escape');
				assertRestored(before, await readFrames(page));
				await search(page, ctx, 'run|kernel');
				assert.equal((await matchedPercent(page)).value, expectedMatched(/run|kernel/));
				// The focus starts at the last clicked frame (compute); Down is a child.
				const focusName = async () => (await readFrames(page)).find((f) => /\bfocus\b/.test(f.cls)).name;
				await page.keyboard.press('ArrowLeft');
				assert.equal(await focusName(), 'compute');
				await page.keyboard.press('ArrowDown');
				assert.equal(await focusName(), 'kernel_alpha', 'Down goes to the first child when inverted');
				await page.keyboard.press('ArrowUp');
				await page.keyboard.press('ArrowUp');
				assert.equal(await focusName(), 'run', 'Up goes to the parent when inverted');
				await page.screenshot({ path: join(outDir, 'inverted-focus-search.png') });
			});
		});

		test('reversed graph: leaves at the root, zoom and search', async () => {
			const lines = parseFolded(FOLDED, { reverse: true });
			const { total } = pathTotals(lines);
			await withPage(reversed.url, async (page, ctx) => {
				const before = await readFrames(page);
				await hover(page, 'kernel_alpha');
				assert.ok((await details(page)).startsWith(`Function: kernel_alpha (40 samples, ${fmtPct(40, TOTAL)}%)`));
				assert.equal(total.get('compute'), 10);
				await clickFrame(page, 'kernel_alpha');
				assertZoomed(before, await readFrames(page), 'kernel_alpha');
				await search(page, ctx, 'main');
				assert.equal((await matchedPercent(page)).value, expectedMatched(/main/, lines));
			});
		});

		test('links (nameattr): plain and Ctrl clicks never zoom, Alt-click and Enter do', async () => {
			const target = render('target', 'x 1\n');
			// A relative link: --nameattr takes http:, https: and relative ones only.
			const linked = render('linked', FOLDED, { links: { kernel_alpha: basename(target.file) } });
			await withPage(linked.url, async (page, ctx) => {
				const isA = await page.evaluate(() => Array.from(document.querySelectorAll('#frames a')).length);
				assert.equal(isA, 1);
				const before = await readFrames(page);
				const popup = page.context().waitForEvent('page', { timeout: 5000 }).catch(() => null);
				await clickFrame(page, 'kernel_alpha', { modifiers: ['Control'] });
				await clickFrame(page, 'kernel_alpha', { button: 'middle' });
				await popup;
				assertRestored(before, await readFrames(page));
				await clickFrame(page, 'kernel_alpha', { modifiers: ['Alt'] });
				assertZoomed(before, await readFrames(page), 'kernel_alpha');
				assert.equal(new URL(await pageUrl(page)).pathname, new URL(linked.url).pathname);
				await page.keyboard.press('Escape');
				// The first arrow key shows the focus on the last clicked frame.
				await page.keyboard.press('ArrowLeft');
				await page.keyboard.press('Enter');
				assertZoomed(before, await readFrames(page), 'kernel_alpha');
				await page.keyboard.press('Escape');
				await Promise.all([page.waitForURL(target.url), clickFrame(page, 'kernel_alpha')]);
				assert.equal(ctx.prompts.length, 0);
			});
		});

		test('differential graph (two counts) loads, zooms and searches', async () => {
			const diff = render('diff', FOLDED.replace(/ (\d+)$/gm, (m, n) => ` ${Math.max(0, n - 3)} ${n}`));
			await withPage(diff.url, async (page, ctx) => {
				const before = await readFrames(page);
				await hover(page, 'kernel_alpha');
				assert.match(await details(page), /^Function: kernel_alpha \(40 samples, [0-9.]+%; \+[0-9.]+%\)/);
				await clickFrame(page, 'kernel_alpha');
				assertZoomed(before, await readFrames(page), 'kernel_alpha');
				await search(page, ctx, 'kernel');
				assert.equal((await matchedPercent(page)).value, expectedMatched(/kernel/));
			});
		});

		test('--diff-union: a path present only before is drawn, says so, and zooms', async (t) => {
			const fixtures = join(here, '..', 'fixtures', 'diff');
			const diffed = fgDiff(join(fixtures, 'before.folded'), join(fixtures, 'after.folded'));
			if (diffed === null) {
				t.skip('no fg-diff beside the renderer');
				return;
			}
			// Expected widths: each path's max(before, after) plus its children's.
			const own = new Map();
			for (const line of diffed.trim().split('\n')) {
				const [, stack, b, a] = /^(.*) (\S+) (\S+)$/.exec(line);
				own.set(stack, [Number(b), Number(a)]);
			}
			const union = (path) => Math.max(...(own.get(path) || [0, 0])) +
				[...new Set([...own.keys()].filter((k) => k.startsWith(path + ';'))
					.map((k) => path + ';' + k.slice(path.length + 1).split(';')[0]))].reduce((sum, c) => sum + union(c), 0);
			const total = union('main') + union('x');
			const info = (page, name) => page.evaluate((n) => {
				for (const rect of document.querySelectorAll('#frames rect')) {
					const title = rect.parentNode.querySelector('title').textContent;
					if (title.slice(0, title.lastIndexOf(' (')) === n) return { title, fill: getComputedStyle(rect).fill };
				}
				return null;
			}, name);
			for (const width of [WIDTH, 600]) {
				const svg = render(`union-${width}`, diffed, { width, extra: ['--diff-union'] });
				await withPage(svg.url, async (page, ctx) => {
					assert.equal(await page.getAttribute(':root', 'data-diff'), 'union');
					const before = await readFrames(page);
					const gone = byName(before, 'gone');
					assert.ok(gone.shown, 'gone is drawn');
					near(gone.width, (width - 20) * union('main;gone') / total, 0.1, 'gone width');
					const goneInfo = await info(page, 'gone');
					assert.match(goneInfo.title, /^gone \(14 samples, [0-9.]+%; before 14, after 0, only before; -[0-9.]+%\)$/);
					assert.equal(goneInfo.fill, 'rgb(180, 180, 210)', 'only-before colour #b4b4d2');
					const newInfo = await info(page, 'new_path');
					assert.match(newInfo.title, /^new_path \(7 samples, [0-9.]+%; before 0, after 7, only after; \+[0-9.]+%\)$/);
					assert.equal(newInfo.fill, 'rgb(210, 200, 160)', 'only-after colour #d2c8a0');
					// The details line shows the whole title after the name, and
					// stays clear of #matched and inside the image.
					const detailsShown = async (name, title) => {
						await hover(page, name);
						const text = await details(page);
						assert.ok(text.includes(title.slice(name.length)), `${width} px: "${text}" shows all of "${title}"`);
						const boxes = await page.evaluate(() => {
							const d = document.getElementById('details');
							const m = document.getElementById('matched');
							return { right: d.getBBox().x + d.getBBox().width, matched: m.getBBox().x,
								matchedShown: getComputedStyle(m).visibility === 'visible' && m.textContent.trim() !== '' };
						});
						assert.ok(boxes.right <= width - 10, `${width} px: details end at ${boxes.right}`);
						if (boxes.matchedShown) assert.ok(boxes.right < boxes.matched, `${width} px: details end at ${boxes.right}, Matched starts at ${boxes.matched}`);
						return text;
					};
					let text = await detailsShown('gone', goneInfo.title);
					assert.ok(text.includes('only before') && text.includes('before 14'), text);
					// The root says before and after as every other frame does.
					const sides = [...own.values()].reduce((s, [b, a]) => [s[0] + b, s[1] + a], [0, 0]);
					const rootInfo = await info(page, 'all');
					const m = /^all \([0-9,]+ samples, 100%; before ([0-9,]+), after ([0-9,]+); [-+]?[0-9.]+%\)$/.exec(rootInfo.title);
					assert.ok(m, rootInfo.title);
					near(Number(m[1]), sides[0], 0.5, 'root before');
					near(Number(m[2]), sides[1], 0.5, 'root after');
					text = await detailsShown('all', rootInfo.title);
					assert.ok(text.includes(`before ${m[1]}, after ${m[2]}`), text);
					await page.screenshot({ path: join(outDir, `diff-union-${width}.png`) });
					text = await detailsShown('new_path', newInfo.title);
					assert.ok(text.includes('only after') && text.includes('after 7'), text);
					// Zooming into the vanished path.
					await clickFrame(page, 'gone');
					const after = await readFrames(page);
					assertZoomed(before, after, 'gone');
					await assertHits(page, before, 'gone');
					await assertLabelsFit(page, after);
					assert.ok(byName(after, 'deeper').shown, 'its child is drawn');
					text = await detailsShown('deeper', (await info(page, 'deeper')).title);
					assert.ok(text.includes('before 4, after 0, only before'), text);
					await page.screenshot({ path: join(outDir, `diff-union-${width}-zoomed.png`) });
					// With a search, Matched takes part of the line.
					await search(page, ctx, 'gone|new_path|deeper');
					await detailsShown('gone', goneInfo.title);
					await page.keyboard.press('Escape');
					await detailsShown('new_path', newInfo.title);
					await page.mouse.move(5, 5);
					assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('matched')).visibility), 'visible',
						'Matched shows again when the details are cleared');
				});
			}
		});

		test('dark mode darkens the page but keeps frame colours', async () => {
			const colours = async (page) => page.evaluate(() => ({
				bg: getComputedStyle(document.getElementById('background')).fill,
				title: getComputedStyle(document.getElementById('title')).fill,
				frames: Array.from(document.querySelectorAll('#frames rect')).map((r) => getComputedStyle(r).fill),
			}));
			let light;
			await withPage(normal.url, async (page) => { light = await colours(page); });
			await withPage(normal.url, async (page) => {
				const dark = await colours(page);
				const lum = (c) => (c.match(/\d+/g) || [255, 255, 255]).slice(0, 3).reduce((a, b) => a + Number(b), 0);
				assert.ok(lum(dark.bg) < 150, `dark background ${dark.bg}`);
				assert.ok(lum(dark.title) > 500, `light text ${dark.title}`);
				assert.deepEqual(dark.frames, light.frames);
				await page.screenshot({ path: join(outDir, 'dark.png') });
			}, { colorScheme: 'dark' });
		});

		test('screenshot: title, buttons, Matched and details do not overlap', async () => {
			await withPage(normal.url, async (page, ctx) => {
				await search(page, ctx, 'kernel|_block');
				await clickFrame(page, 'run');
				await hover(page, 'compute');
				const boxes = await page.evaluate(() => {
					const out = {};
					for (const id of ['title', 'unzoom', 'search', 'ignorecase', 'matched', 'details', 'prev-match', 'next-match', 'clear-search']) {
						const b = document.getElementById(id).getBBox();
						out[id] = { x: b.x, y: b.y, w: b.width, h: b.height };
					}
					return out;
				});
				const ids = Object.keys(boxes);
				for (let i = 0; i < ids.length; i++) {
					for (let j = i + 1; j < ids.length; j++) {
						const a = boxes[ids[i]];
						const b = boxes[ids[j]];
						const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
						assert.ok(!overlap, `${ids[i]} overlaps ${ids[j]}`);
					}
					const a = boxes[ids[i]];
					assert.ok(a.x >= 0 && a.x + a.w <= WIDTH, `${ids[i]} is inside the image`);
				}
				await page.screenshot({ path: join(outDir, 'zoomed-search.png') });
			});
		});

		test('hostile and odd names stay inert text; a 300-deep stack zooms', async () => {
			const deep = Array.from({ length: 300 }, (_, i) => `deep${String(i).padStart(3, '0')}`);
			const folded = [
				'main;<script>alert(1)</script>;a&b 10',
				`main;"quoted" 'single';x 3`,
				'main;unicode_\u00e9\u00e8_\u4e2d\u6587;leaf 7',
				'main;with space name;leaf 2',
				'main;-;kernel_side_[k] 4',
				'java;Ljava/lang/Thread;.run_[j];foo_[j] 6',
				`main;${deep.join(';')} 5`,
				'main;]]>;cdata_end 1',
				'main;back\\slash;x 1',
				'main;$&;x 1',
			].join('\n') + '\n';
			const lines = parseFolded(folded);
			const tricky = render('tricky', folded);
			await withPage(tricky.url, async (page, ctx) => {
				const before = await readFrames(page);
				const names = new Set(before.map((f) => f.name));
				for (const n of ['<script>alert(1)</script>', 'a&b', `"quoted" 'single'`, ']]>', 'back\\slash', '$&', 'kernel_side', 'foo']) {
					assert.ok(names.has(n), `frame ${n} is drawn as text`);
				}
				assert.equal(await page.evaluate(() => document.querySelectorAll('script').length), 1);
				await clickFrame(page, 'deep150');
				assertZoomed(before, await readFrames(page), 'deep150');
				await assertHits(page, before, 'deep150');
				await hover(page, 'deep299');
				assert.ok((await details(page)).startsWith('Function: deep299 (5 samples'));
				await page.keyboard.press('Escape');
				await clickFrame(page, '<script>alert(1)</script>');
				assertZoomed(before, await readFrames(page), '<script>alert(1)</script>');
				await assertLabelsFit(page);
				await page.keyboard.press('Escape');
				for (const term of ['<script>', 'a&b', '$&', ']]>', '\\\\', '"quoted"']) {
					await search(page, ctx, term);
					const re = new RegExp(term);
					const hits = (await readFrames(page)).filter((f) => f.fill === SEARCH_FILL).map((f) => f.name);
					assert.deepEqual(hits.sort(), before.map((f) => f.name).filter((n) => re.test(n)).sort(), term);
					assert.equal((await matchedPercent(page)).value, expectedMatched(re, lines), term);
				}
				await pageUrl(page);
				await page.reload();
				assert.equal(new URL(await pageUrl(page)).searchParams.get('s'), '"quoted"');
				assert.equal((await readFrames(page)).filter((f) => f.fill === SEARCH_FILL).length, 1);
				assert.ok(ctx.prompts.every((p) => p.type === 'prompt'), 'no alert ran');
			});
		});

		test('extreme zoom ratios stay exact: a 0.2 px frame fills the width, its neighbours stay out', async () => {
			// Frames of 0.1 and 0.2 px (ratio 5900) among many neighbours.
			const lines = ['main;big 9000'];
			for (let i = 0; i < 50; i++) lines.push(`main;n${String(i).padStart(2, '0')};leaf${i} 1`);
			lines.push('main;zz_target;child 1');
			for (let i = 0; i < 50; i++) lines.push(`main;p${String(i).padStart(2, '0')};q${i} 1`);
			lines.push('other 800');
			const tiny = render('tiny', lines.join('\n') + '\n', { extra: ['--hash'] });
			await withPage(tiny.url, async (page) => {
				const before = await readFrames(page);
				assert.equal(byName(before, 'zz_target').width, 0.2);
				const margins = await marginShots(page);
				for (const [name, via] of [['zz_target', 'click'], ['main', 'click'], ['n49', 'url'], ['zz_target', 'url']]) {
					if (via === 'click') await clickFrame(page, name);
					else await page.goto(`${tiny.url}?x=${byName(before, name).x}&y=${byName(before, name).y}`);
					const after = await readFrames(page);
					assertZoomed(before, after, name);
					await assertHits(page, before, name);
					await assertLabelsFit(page, after);
					const shots = await marginShots(page);
					assert.ok(margins.every((m, i) => m.equals(shots[i])), `${name}: nothing is drawn in the margins`);
				}
				await page.keyboard.press('Escape');
				assertRestored(before, await readFrames(page));
			});
		});

		test('rounded corners (the writer\'s rx 2, as flamegraph.pl\'s) are drawn, and stay round when zoomed', async () => {
			await withPage(normal.url, async (page) => {
				// Corner radii as drawn: the rect's rx, ry through its transform.
				const corners = () => page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('#frames rect'), (rect) => {
					const m = document.documentElement.getScreenCTM().inverse().multiply(rect.getScreenCTM());
					const style = getComputedStyle(rect);
					const t = rect.parentNode.querySelector('title').textContent;
					return [t.slice(0, t.lastIndexOf(' (')), [parseFloat(style.rx) * m.a, parseFloat(style.ry) * m.d]];
				})));
				const before = await readFrames(page);
				const unzoomed = await corners();
				for (const f of before.filter((x) => x.shown)) {
					near(unzoomed[f.name][0], 2, 0.01, `unzoomed: ${f.name} rx`);
					near(unzoomed[f.name][1], 2, 0.01, `unzoomed: ${f.name} ry`);
				}
				for (const name of ['compute', 'kernel_alpha', 'write_block']) {
					if (name === 'write_block') await page.keyboard.press('Escape');
					await clickFrame(page, name);
					const frames = await readFrames(page);
					assertZoomed(before, frames, name);
					const drawn = await corners();
					for (const f of frames.filter((x) => x.shown)) {
						near(drawn[f.name][0], 2, 0.01, `${name}: ${f.name} rx`);
						near(drawn[f.name][1], 2, 0.01, `${name}: ${f.name} ry`);
					}
				}
				await page.keyboard.press('Escape');
				assertRestored(before, await readFrames(page));
				assert.equal(await page.evaluate(() => document.querySelectorAll('#frames rect[style]').length), 0, 'no inline style left');
			});
		});

		test('a zoom styles the corners of only the frames whose corners the zoom would change', async () => {
			// A frame drawn at most 2 rx (4 px) wide has its corners clamped
			// to half its width, stretched or not: a style on each of the
			// thousands of such frames of a large zoom changes no pixel and
			// cost seconds on 200,000 frames.
			const lines = ['main;b 3000'];
			for (let k = 0; k < 3000; k++) lines.push(`main;a;leaf_${k} 1`);
			for (let k = 0; k < 10; k++) lines.push(`main;a;wide_${k} 100`);
			const big = render('corners', lines.join('\n') + '\n');
			await withPage(big.url, async (page) => {
				await clickFrame(page, 'a');
				const r = await page.evaluate(() => {
					const svg = document.documentElement;
					const inv = svg.getScreenCTM().inverse();
					const out = { styled: 0, narrowStyled: 0, narrowShown: 0, bad: [] };
					for (const rect of document.querySelectorAll('#frames rect')) {
						const m = inv.multiply(rect.getScreenCTM());
						const w = rect.width.baseVal.value * m.a;
						const x = rect.x.baseVal.value * m.a + m.e;
						const shown = !rect.parentNode.classList.contains('hide') && x + w > 10.01 && x < svg.viewBox.baseVal.width - 10.01;
						if (rect.hasAttribute('style')) {
							out.styled++;
							if (w <= 4) out.narrowStyled++;
						}
						if (!shown || w <= 0) continue;
						if (w <= 4) out.narrowShown++;
						// corners as drawn: rx through the scale, clamped to half the width
						const s = getComputedStyle(rect);
						const rx = Math.min(parseFloat(s.rx) * m.a, w / 2);
						const ry = parseFloat(s.ry) * m.d;
						if (Math.abs(rx - Math.min(2, w / 2)) > 0.01 || Math.abs(ry - 2) > 0.01) out.bad.push(`${w}: ${rx} ${ry}`);
					}
					return out;
				});
				assert.ok(r.narrowShown > 100, `the zoom shows frames 4 px wide or less (${r.narrowShown})`);
				assert.deepEqual(r.bad.slice(0, 5), [], 'corners drawn round: rx min(2, width / 2), ry 2');
				assert.ok(r.styled > 0, 'frames wider than 4 px are styled');
				assert.equal(r.narrowStyled, 0, 'no frame 4 px wide or less is styled');
			});
		});

		test('a graph of thousands of frames loads, zooms and restores', async () => {
			const folded = bigFolded(5000);
			const big = render('big', folded);
			await withPage(big.url, async (page) => {
				const before = await readFrames(page);
				assert.ok(before.length >= 4500, `${before.length} frames`);
				const name = 'module_3::dispatch';
				const ms = await page.evaluate(async (n) => {
					for (const rect of document.querySelectorAll('#frames rect')) {
						const t = rect.parentNode.querySelector('title').textContent;
						if (t.startsWith(n + ' (')) {
							const t0 = performance.now();
							rect.dispatchEvent(new MouseEvent('click', { bubbles: true }));
							await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
							return performance.now() - t0;
						}
					}
					return -1;
				}, name);
				assert.ok(ms >= 0 && ms < 1000, `zoom took ${ms} ms`);
				const after = await readFrames(page);
				assertZoomed(before, after, name);
				await assertHits(page, before, name);
				await assertLabelsFit(page, after);
				await page.screenshot({ path: join(outDir, 'big-zoomed.png') });
				await page.keyboard.press('Escape');
				assertRestored(before, await readFrames(page));
			});
		});
	});
}
