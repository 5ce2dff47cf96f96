// views.test.mjs - the viewer's function table, function view, hide and
// recursion toggles, weight order and zoom-reveal (src/viewer/views.js,
// table.js, data.js) in headless Chromium. Every expected figure comes from
// a small reference model of the folded input below, never from the
// viewer's code. Run: node --test tests/browser/
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bigFolded, cleanup, launch, loadPlaywright, parseFolded, render, renderer, workDir } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'out');
const WIDTH = 1200;
const FULL = WIDTH - 20;
const FH = 16;

// Recursion (parse;parse, eval;parse;eval), a function called from several
// places (parse, write), own samples at several depths, a name that is an
// invalid regex.
const FOLDED = [
	'main;run;parse;parse;lex 10',
	'main;run;parse;eval 5',
	'main;run;parse;eval;parse;lex 2',
	'main;init;parse;lex 3',
	'main;run;eval;parse 4',
	'main;log;write 6',
	'main;run;log;write 2',
	'main;run;push(int 3',
	'main;run 1',
	'main 1',
	'other;write 7',
].join('\n') + '\n';
const LINES = parseFolded(FOLDED);

// ---- the reference model --------------------------------------------------

const sum = (lines) => lines.reduce((a, l) => a + l.count, 0);
const TOTAL = sum(LINES);

// Per function: own samples (last frame) and total (samples whose stack
// holds it at least once).
function functionTable(lines) {
	const t = new Map();
	const get = (n) => t.get(n) || t.set(n, { self: 0, total: 0 }).get(n);
	for (const { frames, count } of lines) {
		for (const n of new Set(frames)) get(n).total += count;
		get(frames[frames.length - 1]).self += count;
	}
	return t;
}

// Multiset of "depth|name|count" of the tree of paths (root "all" at 0).
function treeFrames(paths, rootName = 'all') {
	const counts = new Map();
	let root = 0;
	for (const { frames, count } of paths) {
		root += count;
		for (let k = 1; k <= frames.length; k++) {
			const key = frames.slice(0, k).join('\u0000');
			counts.set(key, (counts.get(key) || 0) + count);
		}
	}
	const out = [`0|${rootName}|${root}`];
	for (const [key, n] of counts) {
		const parts = key.split('\u0000');
		out.push(`${parts.length}|${parts[parts.length - 1]}|${n}`);
	}
	return out.sort();
}

// Callees of f: from its first (outermost) occurrence on; callers: from it
// down to the root, reversed. Both without f itself (it is the root).
function calleePaths(lines, f) {
	return lines.filter((l) => l.frames.includes(f))
		.map((l) => ({ frames: l.frames.slice(l.frames.indexOf(f) + 1), count: l.count }));
}
function callerPaths(lines, f) {
	return lines.filter((l) => l.frames.includes(f))
		.map((l) => ({ frames: l.frames.slice(0, l.frames.indexOf(f)).reverse(), count: l.count }));
}
function hideAndCollapse(lines, re, rec) {
	return lines.map(({ frames, count }) => {
		let out = re ? frames.filter((n) => !re.test(n)) : frames.slice();
		if (rec) out = out.filter((n, k) => k === 0 || n !== out[k - 1]);
		return { frames: out, count };
	});
}

// ---- reading the page -------------------------------------------------------

const pw = await loadPlaywright();
let browser;

async function withPage(url, body) {
	const context = await browser.newContext({ viewport: { width: WIDTH + 40, height: 800 } });
	const page = await context.newPage();
	const errors = [];
	const answers = [];
	page.on('pageerror', (e) => errors.push(e.message));
	page.on('dialog', async (d) => {
		if (d.type() === 'prompt' && answers.length) await d.accept(answers.shift());
		else await d.dismiss();
	});
	try {
		await page.goto(url);
		await body(page, { answers });
	} finally {
		await context.close();
	}
	assert.deepEqual(errors, [], 'no page errors');
}

async function readView(page) {
	return page.evaluate(() => [...document.querySelectorAll('#fg-view > g')].map((g) => {
		const r = g.querySelector('rect');
		const t = g.querySelector('title').textContent;
		const p = t.lastIndexOf(' (');
		return {
			title: t, name: t.slice(0, p), count: Number(/^[0-9,]+/.exec(t.slice(p + 2))[0].replace(/,/g, '')),
			x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')),
			width: Number(r.getAttribute('width')), cls: g.getAttribute('class') || '',
		};
	}));
}

// "depth|name|count" of drawn frames whose depth grows by `dir` rows from y0.
function viewMultiset(frames, y0, dir) {
	return frames.map((f) => `${Math.round((f.y - y0) / FH) * dir}|${f.name}|${f.count}`).sort();
}

async function pageUrl(page) {
	return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
		setTimeout(() => setTimeout(() => resolve(window.location.href), 0), 0))));
}

async function shot(page, name) {
	await page.screenshot({ path: join(outDir, `view-${name}.png`) });
}

const graphShown = (page) => page.evaluate(() => !document.getElementById('frames').classList.contains('fg-behind'));

if (pw.skip || renderer().kind !== 'fg-render') {
	test('browser tests of the views', { skip: pw.skip || 'needs fg-render (view data)' }, () => {});
} else {
	describe('views in Chromium', () => {
		let svg;
		before(async () => {
			browser = await launch(pw.chromium);
			mkdirSync(outDir, { recursive: true });
			svg = render('views', FOLDED, { title: 'Views test' });
		});
		after(async () => {
			if (browser) await browser.close();
			cleanup();
		});

		test('the function table: exact self and total, each sample once under recursion; sorting', async () => {
			await withPage(`${svg.url}?table=1`, async (page) => {
				const rows = await page.evaluate(() => [...document.querySelectorAll('#fg-table tbody tr')]
					.map((tr) => [...tr.children].map((td) => td.textContent)));
				const model = functionTable(LINES);
				assert.equal(rows.length, model.size, 'one row per function');
				for (const [self, selfPct, total, totalPct, name] of rows) {
					const m = model.get(name);
					assert.ok(m, `${name} is a function of the input`);
					assert.equal(Number(self), m.self, `${name} self`);
					assert.equal(Number(total), m.total, `${name} total`);
					assert.equal(selfPct, `${(100 * m.self / TOTAL).toFixed(2)}%`);
					assert.equal(totalPct, `${(100 * m.total / TOTAL).toFixed(2)}%`);
				}
				const totals = rows.map((r) => Number(r[2]));
				assert.deepEqual(totals, [...totals].sort((a, b) => b - a), 'sorted by total');
				await shot(page, 'table');
				await page.click('#fg-table th[data-sort="self"]');
				const selfs = await page.evaluate(() => [...document.querySelectorAll('#fg-table tbody tr')]
					.map((tr) => Number(tr.children[0].textContent)));
				assert.deepEqual(selfs, [...selfs].sort((a, b) => b - a), 'sorted by self');
			});
		});

		test('--minwidth 0: a frame drawn 0 px wide at a cousin\'s left edge does not rename the frames beside it', async () => {
			// P;c is 0 px wide at x = 10, where Q (wide) starts too: by
			// geometry alone c could be Q's child. k1, k2 and R are named
			// from the drawing (0.1 px wide or more).
			const folded = ['main;P;c 1', 'main;Q;k1 400000', 'main;Q;k2 300000', 'main;R 300000'].join('\n') + '\n';
			const lines = parseFolded(folded);
			const zero = render('zero-width', folded, { extra: ['--minwidth', '0'] });
			await withPage(`${zero.url}?table=1`, async (page) => {
				const rows = await page.evaluate(() => [...document.querySelectorAll('#fg-table tbody tr')]
					.map((tr) => [tr.children[4].textContent, Number(tr.children[0].textContent.replace(/,/g, '')),
						Number(tr.children[2].textContent.replace(/,/g, ''))]));
				const model = functionTable(lines);
				assert.deepEqual(rows.map((r) => r[0]).sort(), [...model.keys()].sort(), 'one row per function');
				for (const [name, self, total] of rows) {
					assert.equal(self, model.get(name).self, `${name} self`);
					assert.equal(total, model.get(name).total, `${name} total`);
				}
			});
		});

		test('--minwidth 0 --factor 0.001: a frame named from the drawing is the one drawn where it lies, not a narrower one with the same count', async () => {
			// tiny's children are 0.06 px (a_n1, named in the data) and
			// 0.12 px (b_u, named from its frame) wide, both drawn 0.1 px
			// wide, both titled 0 (0.06 and 0.12 ms).
			const folded = ['main;tiny;a_n1 60', 'main;tiny;b_u 120', 'main;big 1179820'].join('\n') + '\n';
			const svg2 = render('factor-narrow', folded, { extra: ['--minwidth', '0', '--factor', '0.001'] });
			await withPage(`${svg2.url}?fn=tiny`, async (page) => {
				const frames = await readView(page);
				const tiny = frames.filter((f) => f.name === 'tiny').sort((a, b) => a.y - b.y)[0];
				const callees = frames.filter((f) => f.y === tiny.y - FH).map((f) => [f.name, f.width]).sort();
				assert.equal(callees.length, 2, 'two callees');
				assert.deepEqual(callees.map((c) => c[0]), ['a_n1', 'b_u']);
				assert.ok(Math.abs(callees[0][1] - FULL * 60 / 180) < 0.2, `a_n1 is 60 of 180 wide (${callees[0][1]})`);
				assert.ok(Math.abs(callees[1][1] - FULL * 120 / 180) < 0.2, `b_u is 120 of 180 wide (${callees[1][1]})`);
			});
		});

		test('a ?s= and ?hide= too long for a regular expression raise no error, and the rest of the URL applies', async () => {
			const long = 'ab'.repeat(20000);
			await withPage(`${svg.url}?s=${long}&hide=${long}&fn=parse`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 0\.0% /);
				assert.match(await page.textContent('#fg-view-info'), /^Function view of parse: /);
			});
		});

		test('the table follows the search and the hide toggle', async () => {
			await withPage(`${svg.url}?table=1&s=^(parse|lex)$&hide=^run$`, async (page) => {
				const rows = await page.evaluate(() => [...document.querySelectorAll('#fg-table tbody tr')]
					.map((tr) => [tr.children[4].textContent, Number(tr.children[2].textContent)]));
				const model = functionTable(hideAndCollapse(LINES, /^run$/, false));
				assert.deepEqual(rows.map((r) => r[0]).sort(), ['lex', 'parse']);
				for (const [name, total] of rows) assert.equal(total, model.get(name).total, name);
			});
		});

		test('function view: callees merged above, callers merged below, exact counts', async () => {
			for (const f of ['parse', 'write', 'eval']) {
				await withPage(`${svg.url}?fn=${f}`, async (page) => {
					const frames = await readView(page);
					const roots = frames.filter((x) => x.name === f && Math.abs(x.width - FULL) < 0.2);
					assert.ok(roots.length >= 2, `${f} is drawn full width twice`);
					const [top, bottom] = roots.sort((a, b) => a.y - b.y).slice(0, 1)
						.concat(roots.sort((a, b) => a.y - b.y).slice(1));
					const callees = frames.filter((x) => x.y <= top.y);
					const callers = frames.filter((x) => x.y >= bottom.y);
					assert.equal(callees.length + callers.length, frames.length, 'two sections');
					assert.deepEqual(viewMultiset(callees, top.y, -1), treeFrames(calleePaths(LINES, f), f), `${f} callees`);
					assert.deepEqual(viewMultiset(callers, bottom.y, 1), treeFrames(callerPaths(LINES, f), f), `${f} callers`);
					const n = LINES.filter((l) => l.frames.includes(f)).reduce((a, l) => a + l.count, 0);
					for (const x of frames) {
						assert.ok(Math.abs(x.width - FULL * x.count / n) <= 0.15, `${x.title}: width ${x.width}`);
					}
					if (f === 'parse') await shot(page, 'function');
				});
			}
		});

		test('function view from a frame (f key, Shift-click) and Esc back; URL fn=', async () => {
			await withPage(svg.url, async (page) => {
				const box = await page.evaluate(() => {
					const g = [...document.querySelectorAll('#frames g > title')].find((t) => t.textContent.startsWith('eval ('));
					const r = g.parentNode.querySelector('rect').getBoundingClientRect();
					return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
				});
				await page.mouse.move(box.x, box.y);
				await page.keyboard.press('f');
				assert.match(new URL(await pageUrl(page)).searchParams.get('fn'), /^eval$/);
				assert.equal(await graphShown(page), false, 'the writer\'s frames are hidden');
				await page.keyboard.press('Escape');
				assert.equal(await graphShown(page), true, 'Esc returns to the graph');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('fn'), null);
				await page.keyboard.down('Shift');
				await page.mouse.click(box.x, box.y);
				await page.keyboard.up('Shift');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('fn'), 'eval');
			});
		});

		test('hide by regex and collapse recursion, alone and together', async () => {
			const cases = [
				['?hide=^(run|log)$', /^(run|log)$/, false],
				['?rec=1', null, true],
				['?hide=^eval$&rec=1', /^eval$/, true],
				['?hide=push(int', /push\(int/, false], // invalid regex: literal text
			];
			for (const [query, re, rec] of cases) {
				await withPage(svg.url + query, async (page) => {
					const frames = await readView(page);
					const root = frames.find((x) => x.name === 'all');
					assert.equal(root.count, TOTAL);
					assert.deepEqual(viewMultiset(frames, root.y, -1), treeFrames(hideAndCollapse(LINES, re, rec)), query);
					if (query === '?hide=^eval$&rec=1') await shot(page, 'hide-rec');
				});
			}
		});

		test('order by weight: heaviest sibling first, own samples at the left edge', async () => {
			await withPage(`${svg.url}?order=weight`, async (page) => {
				const frames = await readView(page);
				const root = frames.find((x) => x.name === 'all');
				assert.deepEqual(viewMultiset(frames, root.y, -1), treeFrames(LINES));
				const main = frames.find((x) => x.name === 'main');
				const run = frames.find((x) => x.name === 'run');
				const init = frames.find((x) => x.name === 'init');
				const log = frames.find((x) => x.name === 'log' && x.y === run.y);
				// main: 1 own sample, then run (27), log (6), init (3)
				assert.ok(Math.abs(run.x - (main.x + FULL * 1 / TOTAL)) < 0.15, 'own samples first');
				assert.ok(run.x < log.x && log.x < init.x, 'heaviest first');
				const rootKids = frames.filter((x) => x.y === main.y).sort((a, b) => a.x - b.x).map((x) => x.name);
				assert.deepEqual(rootKids, ['main', 'other']);
				await shot(page, 'weight');
			});
			// the default stays alphabetical, as the writer draws it
			await withPage(svg.url, async (page) => {
				await page.keyboard.press('w');
				await page.keyboard.press('w');
				assert.equal(await graphShown(page), true);
			});
		});

		test('deep zoom reveals a child narrower than --minwidth, with its exact count', async () => {
			const deep = render('reveal', 'main;wide 200000\nmain;narrow;leaf 5\nmain;narrow 20\n', {});
			await withPage(deep.url, async (page) => {
				const drawn = await page.evaluate(() => [...document.querySelectorAll('#frames title')].map((t) => t.textContent));
				assert.ok(!drawn.some((t) => t.startsWith('leaf (')), 'leaf is too narrow for the writer');
				await page.evaluate(() => {
					const t = [...document.querySelectorAll('#frames title')].find((x) => x.textContent.startsWith('narrow ('));
					t.parentNode.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true }));
				});
				const frames = await readView(page);
				const narrow = frames.find((x) => x.name === 'narrow');
				const leaf = frames.find((x) => x.name === 'leaf');
				assert.ok(leaf, 'leaf appears');
				assert.equal(leaf.count, 5);
				assert.ok(Math.abs(narrow.width - FULL) < 0.15);
				assert.ok(Math.abs(leaf.width - FULL * 5 / 25) < 0.15);
				assert.ok(Math.abs(leaf.x - (narrow.x + FULL * 20 / 25)) < 0.15, 'own samples first');
				assert.match(frames.find((x) => x.name === 'main').cls, /parent/);
				const url = await pageUrl(page);
				assert.ok(new URL(url).searchParams.has('x'), 'the zoom is in the URL');
				await shot(page, 'reveal');
				await page.goto(url);
				assert.ok((await readView(page)).some((x) => x.name === 'leaf'), 'a reload reveals again');
				await page.keyboard.press('Escape');
				assert.equal(await graphShown(page), true, 'Esc returns to the graph');
			});
		});

		test('n or Enter that zoom into a revealing view keep the zoomed frame in sight and give it the focus', async () => {
			// A graph taller than the window (wide's chain), narrow at its
			// foot; narrow's leaf is too narrow for the writer, so the zoom
			// to narrow is drawn as a view.
			const chain = Array.from({ length: 60 }, (_, k) => `c${k}`).join(';');
			const folded = `main;wide;${chain} 200000\nmain;narrow;leaf 5\nmain;narrow 20\n`;
			const tall = render('reveal-tall', folded, {});
			for (const key of ['n', 'Enter']) {
				await withPage(`${tall.url}?s=^narrow$`, async (page) => {
					if (key === 'Enter') {
						// the focus on narrow, unzoomed (n zooms, Esc zooms out)
						await page.keyboard.press('n');
						await page.keyboard.press('Escape');
					}
					await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
					await page.keyboard.press(key);
					const r = await page.evaluate(() => {
						const f = document.querySelector('#fg-view > .focus');
						const z = [...document.querySelectorAll('#fg-view > g:not(.parent)')]
							.find((g) => g.querySelector('title').textContent.startsWith('narrow ('));
						const box = z ? z.querySelector('rect').getBoundingClientRect() : null;
						return { name: f ? f.querySelector('title').textContent : null, top: box ? box.top : NaN,
							bottom: box ? box.bottom : NaN, height: window.innerHeight, leaf: !!document.querySelector('#fg-view title') &&
								[...document.querySelectorAll('#fg-view title')].some((t) => t.textContent.startsWith('leaf (')) };
					});
					assert.ok(r.leaf, `${key}: the revealing view shows leaf`);
					assert.ok(r.top >= 0 && r.bottom <= r.height, `${key}: the zoomed narrow is in the window (${r.top}..${r.bottom} of ${r.height})`);
					assert.match(String(r.name), /^narrow \(25 /, `${key}: it has the focus`);
				});
			}
		});

		test('URL state: toggles written, unknown parameters kept, all restored on reload', async () => {
			await withPage(`${svg.url}?keep=me`, async (page, { answers }) => {
				await page.keyboard.press('r');
				await page.keyboard.press('w');
				answers.push('^log$');
				await page.keyboard.press('h');
				await page.keyboard.press('t');
				const url = new URL(await pageUrl(page));
				assert.equal(url.searchParams.get('keep'), 'me');
				assert.equal(url.searchParams.get('rec'), '1');
				assert.equal(url.searchParams.get('order'), 'weight');
				assert.equal(url.searchParams.get('hide'), '^log$');
				assert.equal(url.searchParams.get('table'), '1');
				const before = await readView(page);
				await page.goto(url.href);
				assert.deepEqual(await readView(page), before, 'same view after a reload');
				assert.equal(await page.evaluate(() => document.getElementById('fg-table').getAttribute('display')), null);
				await page.keyboard.press('r');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('rec'), null);
			});
		});

		test('keyboard: t opens the table, Tab and Enter open a function view, arrows and Enter zoom in it, Esc returns', async () => {
			await withPage(svg.url, async (page) => {
				await page.keyboard.press('t');
				for (let k = 0; k < 4; k++) await page.keyboard.press('Tab');
				const name = await page.evaluate(() => document.activeElement.children[4] &&
					document.activeElement.children[4].textContent);
				assert.ok(name, 'a row has the focus');
				await page.keyboard.press('Enter');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('fn'), name);
				// arrows move a focus over the drawn frames, Enter zooms to it
				const focused = () => page.evaluate(() => {
					const g = document.querySelector('#fg-view > .focus');
					return g && { title: g.querySelector('title').textContent, width: Number(g.querySelector('rect').getAttribute('width')) };
				});
				await page.keyboard.press('ArrowRight');
				const start = await focused();
				assert.ok(start && start.title.startsWith(`${name} (`), `the focus starts on ${name}`);
				await page.keyboard.press('ArrowUp');
				const callee = await focused();
				assert.ok(callee && callee.title !== start.title, 'Up moves to a callee');
				assert.match(await page.textContent('#details'), new RegExp(`${callee.title.replace(/[()]/g, '\\$&')}`));
				await page.keyboard.press('Enter');
				const zoomed = await focused();
				assert.equal(zoomed.title, callee.title, 'the focus stays on the zoomed frame');
				assert.ok(Math.abs(zoomed.width - FULL) < 0.2, 'Enter zooms it to the full width');
				await page.keyboard.press('Escape');
				await page.keyboard.press('Escape');
				assert.equal(await graphShown(page), true);
			});
		});

		test('keyboard in the table: a sorted heading keeps the focus, arrows and Page/Home/End move between rows', async () => {
			let folded = '';
			for (let i = 0; i < 200; i++) folded += `main;fn${String(i).padStart(3, '0')} ${i + 1}\n`;
			const many = render('table-keys', folded);
			await withPage(many.url, async (page) => {
				await page.keyboard.press('t');
				const active = () => page.evaluate(() => {
					const el = document.activeElement;
					return el && (el.getAttribute('data-sort') || (el.getAttribute('data-row') !== null ? 'row' + el.getAttribute('data-row') : el.tagName));
				});
				assert.equal(await active(), 'self', 'the first heading has the focus');
				await page.keyboard.press('Enter');
				assert.equal(await active(), 'self', 'sorting keeps the focus on the heading');
				assert.equal(await page.evaluate(() => document.querySelector('th.sorted').getAttribute('data-sort')), 'self');
				await page.keyboard.press('ArrowDown');
				assert.equal(await active(), 'row0', 'Down from a heading: the first row');
				for (let k = 0; k < 30; k++) await page.keyboard.press('ArrowDown');
				assert.equal(await active(), 'row30');
				const scrolled = await page.evaluate(() => document.querySelector('.fg-table').scrollTop);
				assert.ok(scrolled > 0, `the table scrolls to the focused row (${scrolled})`);
				await page.keyboard.press('PageDown');
				assert.equal(await active(), 'row40');
				await page.keyboard.press('PageUp');
				await page.keyboard.press('ArrowUp');
				assert.equal(await active(), 'row29');
				await page.keyboard.press('End');
				assert.equal(await active(), 'row200', '201 functions: main too');
				await page.keyboard.press('Home');
				assert.equal(await active(), 'row0');
				await page.keyboard.press('ArrowUp');
				assert.equal(await active(), 'row0', 'Up from the first row stays');
				assert.equal(await page.evaluate(() => document.querySelectorAll('#frames .focus').length), 0,
					'the graph behind the table takes no focus');
				await page.keyboard.press('Enter');
				assert.equal(new URL(await pageUrl(page)).searchParams.get('fn'), 'fn199', 'Enter opens the row (the heaviest by self)');
			});
		});

		test('?fn= of a function the budget left out says so, never that it does not exist', async () => {
			const small = render('budget-fn', FOLDED, { extra: ['--view-nodes', '4'] });
			await withPage(`${small.url}?fn=lex`, async (page) => {
				const info = await page.textContent('#fg-view-info');
				assert.doesNotMatch(info, /No function named/, info);
				assert.match(info, /^lex is not in the view data: the budget may have left it in "other"/, info);
			});
			// without a budget a name in no stack does not exist
			await withPage(`${svg.url}?fn=nosuch`, async (page) => {
				assert.match(await page.textContent('#fg-view-info'), /^No function named nosuch/);
			});
		});

		test('text from the URL is shown without bidi controls, which would reorder the line after it', async () => {
			// U+202E (right-to-left override) would show "... is hidden" backwards
			const url = `${svg.url}?fn=${encodeURIComponent('x\u202e\u2066y')}&hide=${encodeURIComponent('q\u202dr')}` +
				`&s=${encodeURIComponent('m\u202ea')}`;
			await withPage(url, async (page) => {
				const matched = await page.textContent('#matched');
				assert.match(matched, /for \/m\ufffda\//, matched);
				const info = await page.textContent('#fg-view-info');
				assert.match(info, /^No function named x\ufffd\ufffdy/, info);
				assert.match(info, /hiding \/q\ufffdr\//, info);
				assert.doesNotMatch(info, /[\u202a-\u202e\u2066-\u2069]/, info);
			});
		});

		test('a search typed in the prompt is guarded against backtracking as a link\'s is, and a hide term too', async () => {
			// "m.*.*n" as a regex matches main; it could backtrack, so it is plain text
			for (const url of [svg.url, `${svg.url}?s=${encodeURIComponent('m.*.*n')}`]) {
				await withPage(url, async (page, { answers }) => {
					if (url === svg.url) {
						answers.push('m.*.*n');
						await page.keyboard.press('/');
					}
					assert.match(await page.textContent('#matched'), /\(0 frames\)$/, url);
					answers.push('m.*.*n');
					await page.keyboard.press('h');
					const frames = await readView(page);
					assert.ok(frames.some((f) => f.name === 'main'), 'the hide term is plain text too: main stays');
				});
			}
			// a plain regex still works typed
			await withPage(svg.url, async (page, { answers }) => {
				answers.push('^ma.n$');
				await page.keyboard.press('/');
				assert.match(await page.textContent('#matched'), /\(1 frame\)$/);
			});
		});

		test('a large view draws widest first in batches and ends complete and exact', async () => {
			const big = bigFolded(5000);
			const lines = parseFolded(big);
			const large = render('views-large', big);
			await withPage(`${large.url}`, async (page) => {
				const busy = await page.evaluate(() => {
					document.dispatchEvent(new KeyboardEvent('keydown', { key: 'w', bubbles: true }));
					const g = document.getElementById('fg-view');
					const first = [...g.children].map((c) => Number(c.querySelector('rect').getAttribute('width')));
					return { busy: g.getAttribute('aria-busy'), count: first.length, sorted: first.every((w, k) => k === 0 || w <= first[k - 1] * Math.SQRT2 + 0.1) };
				});
				assert.equal(busy.busy, 'true', 'more frames follow');
				assert.ok(busy.count > 0 && busy.count < 5000, `${busy.count} frames drawn at once`);
				assert.ok(busy.sorted, 'widest first');
				await page.waitForFunction(() => !document.getElementById('fg-view').hasAttribute('aria-busy'));
				const frames = await readView(page);
				const root = frames.find((x) => x.name === 'all');
				assert.deepEqual(viewMultiset(frames, root.y, -1), treeFrames(lines), 'every frame, exact');
				await shot(page, 'large-weight');
				// a toggle while batches are pending cancels them: no stray frames
				await page.keyboard.press('w');
				await page.keyboard.press('r');
				await page.waitForFunction(() => !document.getElementById('fg-view').hasAttribute('aria-busy'));
				const again = await readView(page);
				assert.deepEqual(viewMultiset(again, again.find((x) => x.name === 'all').y, -1), treeFrames(hideAndCollapse(lines, null, true)));
			});
		});

		test('past the node budget the remainder is reported, counts stay exact', async () => {
			const small = render('budget', FOLDED, { extra: ['--view-nodes', '4'] });
			await withPage(`${small.url}?rec=1&table=1`, async (page) => {
				const info = await page.textContent('#fg-view-info');
				const frames = await readView(page);
				const root = frames.find((x) => x.name === 'all');
				assert.equal(root.count, TOTAL, 'the root keeps every sample');
				const drawn = frames.filter((x) => x.y === root.y - FH).reduce((a, x) => a + x.count, 0);
				const other = Number(/([0-9,]+) samples in "other"/.exec(info)[1].replace(/,/g, ''));
				assert.ok(other > 0, info);
				assert.ok(drawn <= TOTAL);
				const note = await page.textContent('#fg-table');
				assert.match(note, /in "other"/);
			});
		});

		test('a colour from palette.map is text in a drawn view, never markup (no script through --cp)', async () => {
			if (renderer().kind !== 'fg-render') return;
			// The writer escapes the fill; the view, redrawing from it, must too.
			const dir = join(workDir, 'cp-poison');
			mkdirSync(dir, { recursive: true });
			writeFileSync(join(dir, 'in.folded'), 'main;foo;bar 5\nmain;baz 3\n');
			writeFileSync(join(dir, 'palette.map'),
				'foo->red" onmouseover="window.fgPwned=1" data-x="\nbaz->rgb(1,2,3)<b>&amp\nmain->rgb(1,2,3)\n');
			const res = spawnSync(renderer().path, ['--cp', '-o', 'cp.svg', 'in.folded'], { cwd: dir, encoding: 'utf8' });
			assert.equal(res.status, 0, res.stderr);
			await withPage(pathToFileURL(join(dir, 'cp.svg')).href, async (page) => {
				const errors = [];
				page.on('pageerror', (e) => errors.push(e.message));
				await page.keyboard.press('r');
				const frames = await readView(page);
				assert.ok(frames.some((x) => x.name === 'foo') && frames.some((x) => x.name === 'baz'), 'the view is drawn');
				const found = await page.evaluate(() => {
					const out = {};
					for (const g of document.querySelectorAll('#fg-view > g')) {
						const r = g.querySelector('rect');
						r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
						out[g.querySelector('title').textContent.split(' (')[0]] = {
							fill: r.getAttribute('fill'), handler: r.hasAttribute('onmouseover'),
						};
					}
					return { out, pwned: window.fgPwned === 1 };
				});
				assert.equal(found.pwned, false, 'no handler ran');
				assert.equal(found.out.foo.handler, false, 'no onmouseover attribute');
				assert.equal(found.out.foo.fill, 'red" onmouseover="window.fgPwned=1" data-x="', 'the fill is the text');
				assert.equal(found.out.baz.fill, 'rgb(1,2,3)<b>&amp', 'markup characters stay text');
				assert.deepEqual(errors, []);
			});
		});

		// Shares in the table and in drawn views come from the exact counts:
		// decimals and --factor change the counts shown, never the shares.
		const tableShares = (page) => page.evaluate(() => Object.fromEntries(
			[...document.querySelectorAll('#fg-table tbody tr')].map((tr) =>
				[tr.children[4].textContent, [tr.children[2].textContent, tr.children[3].textContent]])));
		test('decimal counts and --factor: exact shares in the table and the views', async () => {
			const dec = render('decimals', 'a;b 2.5\na;c 1.25\na;d 0.5\n');
			await withPage(`${dec.url}?table=1&rec=1`, async (page) => {
				const rows = await tableShares(page);
				assert.deepEqual(rows.b, ['2', '58.82%'], 'b: 2.5 shown as the writer shows it (half to even)');
				assert.deepEqual(rows.c, ['1', '29.41%']);
				assert.deepEqual(rows.d, ['0', '11.76%']);
				const titles = (await readView(page)).map((x) => x.title);
				assert.ok(titles.includes('all (4 samples, 100.00%)'), titles.join(' | '));
				assert.ok(titles.includes('b (2 samples, 58.82%)'), titles.join(' | '));
			});
			const scaled = render('factor', 'main;a;b 7\nmain;c 3\nx;c 1\n', { extra: ['--factor', '0.001'] });
			await withPage(`${scaled.url}?table=1&rec=1`, async (page) => {
				const rows = await tableShares(page);
				assert.equal(rows.b[1], `${(700 / 11).toFixed(2)}%`, '--factor 0.001 keeps b\'s share');
				assert.equal(rows.c[1], `${(400 / 11).toFixed(2)}%`);
				const titles = (await readView(page)).map((x) => x.title);
				assert.ok(titles.includes('all (0 samples, 100.00%)'), titles.join(' | '));
			});
		});

		test('hover in a drawn view: self samples, and the share of the zoom', async () => {
			const hov = render('view-hover', 'main;a;b 50\nmain;a 10\nmain;c 50\n');
			await withPage(`${hov.url}?rec=1`, async (page) => {
				const hover = async (name) => {
					await page.evaluate((n) => {
						const g = [...document.querySelectorAll('#fg-view > g')]
							.find((x) => x.querySelector('title').textContent.startsWith(`${n} (`));
						g.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
					}, name);
					return page.textContent('#details');
				};
				assert.equal(await hover('a'), 'Function: a (60 samples, 54.55%) | self: 10 samples (9.09%)');
				await page.evaluate(() => {
					const g = [...document.querySelectorAll('#fg-view > g')]
						.find((x) => x.querySelector('title').textContent.startsWith('a ('));
					g.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true }));
				});
				assert.equal(await hover('b'), 'Function: b (50 samples, 45.45%) | self: 50 samples (45.45%) | 83.33% of zoom');
			});
		});

		test('n and N in a drawn view move between the view\'s matches', async () => {
			const two = render('view-next', 'main;a;b 50\nmain;c;b 10\nmain;c 50\n');
			await withPage(`${two.url}?rec=1&s=b`, async (page) => {
				const focused = () => page.evaluate(() => {
					const g = document.querySelector('#fg-view > g.focus');
					return g ? `${g.querySelector('title').textContent.split(' (')[0]}@${g.querySelector('rect').getAttribute('x')}` : null;
				});
				const xs = await page.evaluate(() => [...document.querySelectorAll('#fg-view > g')]
					.filter((g) => g.querySelector('title').textContent.startsWith('b ('))
					.map((g) => Number(g.querySelector('rect').getAttribute('x'))).sort((p, q) => p - q));
				assert.equal(xs.length, 2, 'two b frames in the view');
				const seen = [];
				for (const key of ['n', 'n', 'n', 'N']) {
					await page.keyboard.press(key);
					seen.push(await focused());
				}
				assert.deepEqual(seen, [`b@${xs[0]}`, `b@${xs[1]}`, `b@${xs[0]}`, `b@${xs[1]}`]);
				assert.doesNotMatch(await pageUrl(page), /[?&][xy]=/, 'no writer zoom behind the view');
			});
		});

		test('a drawn view spans --total as the writer does', async () => {
			const tot = render('total', 'main;a;b 7\nmain;c 3\nx;c 1\n', { extra: ['--total', '100'] });
			await withPage(`${tot.url}?rec=1`, async (page) => {
				const main = (await readView(page)).find((x) => x.name === 'main');
				assert.ok(Math.abs(main.width - FULL * 10 / 100) < 0.2, `main is 10% of the width: ${main.width}`);
				assert.equal(main.title, 'main (10 samples, 10.00%)');
			});
		});

		test('Matched counts frames narrower than --minwidth, and the frames hide leaves', async () => {
			const narrow = render('narrow-matched', 'main;heavy 12000\n' +
				Array.from({ length: 1000 }, (_, i) => `main;n${i};leaf 1\n`).join(''));
			await withPage(`${narrow.url}?s=${encodeURIComponent('^n')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 7\.7% for \/\^n\//);
			});
			// hiding main;n* leaves their leaves to main: "leaf" keeps its share,
			// "^n" matches nothing
			await withPage(`${narrow.url}?s=${encodeURIComponent('^n')}&hide=${encodeURIComponent('^n')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 0\.0% /);
			});
			await withPage(`${narrow.url}?s=leaf&hide=${encodeURIComponent('^n')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 7\.7% /);
			});
		});

		test('Matched follows what the frames show when --nameattr retitles them', async () => {
			if (renderer().kind !== 'fg-render') return;
			const attrs = join(workDir, 'retitle.attr');
			writeFileSync(attrs, 'b\ttitle=BEE custom\n');
			const re = render('retitle', 'main;a;b 7\nmain;c 3\n', { extra: ['--nameattr', attrs] });
			await withPage(`${re.url}?s=BEE`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 70\.0% .*\(1 frame\)$/);
			});
			await withPage(`${re.url}?s=${encodeURIComponent('^b$')}`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 0\.0% .*\(0 frames\)$/);
			});
		});

		test('Matched of the root is 100%, with --total and with decimals; hover on the root of a view spans --total', async () => {
			const tot = render('matched-total', 'm;q;b 3\nm;c;b 1\nx;q 2\n', { extra: ['--total', '100'] });
			await withPage(`${tot.url}?s=.`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 100% /);
			});
			await withPage(`${tot.url}?rec=1`, async (page) => {
				await page.evaluate(() => {
					const g = [...document.querySelectorAll('#fg-view > g')]
						.find((x) => x.querySelector('title').textContent.startsWith('all ('));
					g.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
				});
				assert.equal(await page.textContent('#details'),
					'Function: all (100 samples, 100.00%) | self: 94 samples (94.00%)');
			});
			const dec = render('matched-decimals', 'm;q 0.1\nm;b 0.2\nm;q;q 0.3\n');
			await withPage(`${dec.url}?s=m`, async (page) => {
				assert.match(await page.textContent('#matched'), /^Matched: 100% /);
			});
		});

		test('a long name in a drawn view\'s details is shortened, its counts kept', async () => {
			const long = `f${'x'.repeat(120)}`;
			const narrow = render('view-long-name', `main;${long} 5\nmain;b 5\n`, { width: 400 });
			await withPage(`${narrow.url}?rec=1`, async (page) => {
				const text = await page.evaluate((n) => {
					const g = [...document.querySelectorAll('#fg-view > g')]
						.find((x) => x.querySelector('title').textContent.startsWith(`${n} (`));
					g.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
					const d = document.getElementById('details');
					return [d.textContent, d.getComputedTextLength()];
				}, long);
				assert.match(text[0], /^Function: fx+\.\. \(5 samples, 50\.00%\)$/, text[0]);
				assert.ok(text[1] <= 400 - 10, `inside the image: ${text[1]}`);
			});
		});

		test('no function view of the root or of a hidden function; leaving a revealing zoom clears x and y', async () => {
			await withPage(`${svg.url}?fn=parse&hide=^parse$`, async (page) => {
				assert.match(await page.textContent('#fg-view-info'), /^parse is hidden/);
			});
			// a function of no samples, with nothing hidden, is no hidden one
			const zero = render('zero-fn', 'm;z 0\nm;a 5\n');
			await withPage(`${zero.url}?fn=z`, async (page) => {
				assert.match(await page.textContent('#fg-view-info'), /^Function view of z/);
			});
			await withPage(svg.url, async (page) => {
				const opened = await page.evaluate(() => {
					const g = [...document.querySelectorAll('#frames g')]
						.find((x) => x.querySelector('title').textContent.startsWith('all ('));
					g.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }));
					const info = document.getElementById('fg-view-info');
					return info ? info.textContent : '';
				});
				assert.equal(opened, '', 'Shift-click on the root opens no view');
				assert.doesNotMatch(await pageUrl(page), /fn=/);
			});
			const reveal = render('reveal-url', 'main;wide 200000\nmain;narrow;leaf 5\nmain;narrow 20\n');
			await withPage(reveal.url, async (page) => {
				const xy = await page.evaluate(() => {
					const g = [...document.querySelectorAll('#frames g')]
						.find((x) => x.querySelector('title').textContent.startsWith('main ('));
					const r = g.querySelector('rect');
					return [r.getAttribute('x'), r.getAttribute('y')];
				});
				await page.goto(`${reveal.url}?x=${xy[0]}&y=${xy[1]}&fn=leaf`);
				await page.keyboard.press('Escape');
				assert.doesNotMatch(await pageUrl(page), /[?&][xy]=/, 'x and y gone with the zoom');
			});
		});
	});
}
