// helpers.mjs - shared by viewer.test.mjs and bench/zoom.mjs: finding the
// browser and the renderer, rendering folded text to SVG, reading frames
// back from the live DOM, and the independent expectations (computed from
// the folded input, never from the viewer).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];

function executable(path) {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

// Resolves to {chromium} or {skip: 'why'}; never downloads anything.
export async function loadPlaywright() {
	if (!existsSync(CHROMIUM)) {
		return { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` };
	}
	if (!existsSync(join(here, 'node_modules', 'playwright-core'))) {
		return { skip: 'tests/browser/node_modules is missing (cd tests/browser && npm install)' };
	}
	try {
		const { chromium } = await import('playwright-core');
		return { chromium };
	} catch (e) {
		return { skip: `playwright-core does not load: ${e.message}` };
	}
}

export async function launch(chromium) {
	return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

// fg-render from FG_RENDER (default ../../build/fg-render), or the Python
// stand-in while the C renderer does not exist.
export function renderer() {
	const path = resolve(process.env.FG_RENDER || join(here, '..', '..', 'build', 'fg-render'));
	if (executable(path)) {
		return { kind: 'fg-render', path };
	}
	return { kind: 'make_fixture.py', path: join(here, 'make_fixture.py') };
}

export const workDir = mkdtempSync(join(tmpdir(), 'fg-browser-'));

// Removes the rendered files, unless FG_KEEP is set (to look at them).
export function cleanup() {
	if (!process.env.FG_KEEP) rmSync(workDir, { recursive: true, force: true });
}

// Renders folded text; opts: {inverted, reverse, title, width, links: {name: url},
// extra: [more renderer arguments]}.
// Returns {file, url}.
export function render(name, folded, opts = {}) {
	const r = renderer();
	const input = join(workDir, `${name}.folded`);
	const output = join(workDir, `${name}.svg`);
	writeFileSync(input, folded);
	const args = [];
	if (opts.inverted) args.push('--inverted');
	if (opts.reverse) args.push('--reverse');
	if (opts.title) args.push('--title', opts.title);
	if (opts.width) args.push('--width', String(opts.width));
	if (opts.links) {
		if (r.kind === 'fg-render') {
			const attrFile = join(workDir, `${name}.nameattr`);
			writeFileSync(attrFile, Object.entries(opts.links)
				.map(([fn, url]) => `${fn}\thref=${url}\n`).join(''));
			args.push('--nameattr', attrFile);
		} else {
			for (const [fn, url] of Object.entries(opts.links)) args.push('--href', `${fn}=${url}`);
		}
	}
	if (opts.extra) args.push(...opts.extra);
	args.push(input);
	const cmd = r.kind === 'fg-render' ? r.path : 'python3';
	const argv = r.kind === 'fg-render' ? args : [r.path, ...args];
	const res = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 30 });
	if (res.error) throw res.error;
	if (res.status !== 0) {
		throw new Error(`${r.kind} ${args.join(' ')} failed (${res.status}): ${res.stderr}`);
	}
	writeFileSync(output, res.stdout);
	return { file: output, url: pathToFileURL(output).href };
}

// fg-diff BEFORE AFTER from beside fg-render ("STACK BEFORE AFTER" lines),
// or null when there is no fg-diff (the Python stand-in).
export function fgDiff(beforeFile, afterFile) {
	const r = renderer();
	const path = join(dirname(r.path), 'fg-diff');
	if (r.kind !== 'fg-render' || !executable(path)) return null;
	const res = spawnSync(path, [beforeFile, afterFile], { encoding: 'utf8' });
	if (res.error) throw res.error;
	if (res.status !== 0) throw new Error(`fg-diff failed (${res.status}): ${res.stderr}`);
	return res.stdout;
}

// ---- expectations from the folded input ---------------------------------

// Parses folded text into lines [{frames, count}] (the last count of a line
// is the one drawn; "--reverse" reverses the frames).
export function parseFolded(text, { reverse = false } = {}) {
	const lines = [];
	for (const raw of text.split('\n')) {
		const m = /^(.*?)(?: (\d+(?:\.\d+)?))? (\d+(?:\.\d+)?)\r?$/.exec(raw);
		if (!m) continue;
		const frames = m[1].split(';');
		if (reverse) frames.reverse();
		lines.push({ frames, count: Number(m[3]) });
	}
	return lines;
}

// Totals of every frame path ("a;b;c" -> samples) and of its self samples.
export function pathTotals(lines) {
	const total = new Map();
	const self = new Map();
	for (const { frames, count } of lines) {
		for (let i = 1; i <= frames.length; i++) {
			const key = frames.slice(0, i).join(';');
			total.set(key, (total.get(key) || 0) + count);
		}
		const leaf = frames.join(';');
		self.set(leaf, (self.get(leaf) || 0) + count);
	}
	return { total, self };
}

// Samples that have at least one frame whose name matches re: each sample
// counted once however many of its frames match.
export function matchedSamples(lines, re) {
	let sum = 0;
	for (const { frames, count } of lines) {
		if (frames.some((f) => re.test(f))) sum += count;
	}
	return sum;
}

export function sumCounts(lines) {
	return lines.reduce((s, l) => s + l.count, 0);
}

// A synthetic profile of about `frames` frames, every one wider than 0.1 px
// at width 1200: 10 x 10 x 10 shared top levels, then unique chains.
export function bigFolded(frames = 20000) {
	const top = 1110;
	const leaves = 1000;
	const chain = Math.max(1, Math.round((frames - top - 1) / leaves));
	let seed = 12345;
	const rand = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	const out = [];
	for (let a = 0; a < 10; a++) {
		for (let b = 0; b < 10; b++) {
			for (let c = 0; c < 10; c++) {
				const stack = [`module_${a}::dispatch`, `handler_${a}_${b}`, `worker_${a}_${b}_${c}_process_items`];
				for (let d = 0; d < chain; d++) stack.push(`fn_${a}${b}${c}_${d}_${'x'.repeat(Math.floor(rand() * 12))}`);
				out.push(`${stack.join(';')} ${1 + Math.floor(rand() * 3)}`);
			}
		}
	}
	return out.join('\n') + '\n';
}

// ---- the live DOM, as a person sees it -----------------------------------
//
// A frame's geometry is where it is drawn: its rect's box mapped through
// every transform to the root SVG's user units (as the file's coordinates),
// clipped to the graph area [xpad, width - xpad]; frames outside it are not
// drawn (assertMarginsClear and framesAtPoints check that independently).
// A label is the text drawn on the frame: any rendered <text> whose anchor
// lies inside the frame's drawn box, wherever it is in the DOM.

// All frames: name (before the last " ("), title, drawn geometry (x, y,
// width; 0 width when not drawn), shown (drawn with a positive width),
// class, fill attribute, effective opacity, and the label drawn on it with
// its anchor x, drawn width and scale (1: not stretched) and opacity.
// Rejects when a rendered label sits on no drawn frame.
export async function readFrames(page) {
	const out = await page.evaluate(() => {
		const svg = document.documentElement;
		const inv = svg.getScreenCTM().inverse();
		const xpad = Number(svg.getAttribute('data-xpad') || 10);
		const W = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : Number(svg.getAttribute('width'));
		const r4 = (v) => Math.round(v * 1e4) / 1e4;
		// Rendered: no display:none on the element or an ancestor (which
		// checkVisibility() misses for SVG here), visible, not transparent.
		const rendered = (el) => {
			if (getComputedStyle(el).visibility !== 'visible') return false;
			for (let e = el; e && e.nodeType === 1; e = e.parentNode) {
				const style = getComputedStyle(e);
				if (style.display === 'none' || Number(style.opacity) === 0) return false;
			}
			return true;
		};
		const opacity = (el) => {
			let o = 1;
			for (let e = el; e && e.nodeType === 1; e = e.parentNode) o *= Number(getComputedStyle(e).opacity);
			return r4(o);
		};
		// Box of a graphics element in root user units.
		const box = (el, b) => {
			const m = inv.multiply(el.getScreenCTM());
			const xs = [];
			const ys = [];
			for (const [px, py] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
				xs.push(m.a * px + m.c * py + m.e);
				ys.push(m.b * px + m.d * py + m.f);
			}
			return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys), m };
		};
		const frames = Array.from(document.querySelectorAll('#frames rect')).map((rect) => {
			const el = rect.parentNode;
			const title = el.querySelector('title').textContent;
			const p = title.lastIndexOf(' (');
			const isShown = rendered(rect);
			const b = isShown ? box(rect, rect.getBBox()) : null;
			const left = b ? Math.max(b.left, xpad) : 0;
			const right = b ? Math.min(b.right, W - xpad) : 0;
			const width = Math.max(0, right - left);
			return {
				name: p >= 0 ? title.slice(0, p) : title,
				title,
				x: b ? r4(left) : NaN,
				y: b ? r4(b.top) : NaN,
				width: r4(width),
				bottom: b ? b.bottom : NaN,
				shown: width > 0.01, // less is no visible pixel (and float32 noise at edges)
				cls: el.getAttribute('class') || '',
				fill: rect.getAttribute('fill'),
				opacity: isShown ? opacity(rect) : 0,
				label: '',
				labelX: null,
				labelWidth: null,
				labelScale: null,
				labelOpacity: null,
			};
		});
		const stray = [];
		for (const text of document.querySelectorAll('text')) {
			if (text.parentNode === svg || text.textContent === '' || !rendered(text)) continue;
			const m = inv.multiply(text.getScreenCTM());
			const tx = text.x.baseVal.length ? text.x.baseVal[0].value : 0;
			const ty = text.y.baseVal.length ? text.y.baseVal[0].value : 0;
			const ax = m.a * tx + m.c * ty + m.e;
			const ay = m.b * tx + m.d * ty + m.f;
			const on = frames.filter((f) => f.shown && ax >= f.x && ax < f.x + f.width && ay >= f.y && ay <= f.bottom);
			if (on.length !== 1) {
				stray.push(`"${text.textContent}" at ${r4(ax)},${r4(ay)} is on ${on.length} frames`);
				continue;
			}
			const f = on[0];
			if (f.labelX !== null) {
				stray.push(`"${text.textContent}" is a second label on ${f.name}`);
				continue;
			}
			f.label = text.textContent;
			f.labelX = r4(ax);
			f.labelWidth = r4(text.getComputedTextLength() * m.a);
			f.labelScale = [r4(m.a), r4(m.b), r4(m.c), r4(m.d)].join(' ');
			f.labelOpacity = opacity(text);
		}
		for (const f of frames) delete f.bottom;
		return { frames, stray };
	});
	if (out.stray.length) throw new Error(`labels not on exactly one drawn frame: ${out.stray.slice(0, 5).join('; ')}`);
	return out.frames;
}

// Client-space centre of the drawn part of the frame called `name`,
// scrolled into view.
export async function centreOf(page, name) {
	const box = await page.evaluate((n) => {
		const svg = document.documentElement;
		const xpad = Number(svg.getAttribute('data-xpad') || 10);
		const W = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : Number(svg.getAttribute('width'));
		for (const rect of document.querySelectorAll('#frames rect')) {
			const t = rect.parentNode.querySelector('title').textContent;
			if (t.slice(0, t.lastIndexOf(' (')) === n) {
				rect.scrollIntoView({ block: 'center', inline: 'nearest' });
				const b = rect.getBoundingClientRect();
				const m = svg.getScreenCTM();
				const left = Math.max(b.left, m.a * xpad + m.e);
				const right = Math.min(b.right, m.a * (W - xpad) + m.e);
				return { x: (left + right) / 2, y: b.y + b.height / 2, w: Math.max(0, right - left) };
			}
		}
		return null;
	}, name);
	if (!box) throw new Error(`no frame called ${name}`);
	return box;
}

// Hit testing, as the mouse sees the graph: every 2 px along the middle of
// each row of frames in the window, across the whole image width. Returns
// the names of the frames found inside the graph area and those found in
// the margins (where no frame may be).
export function framesAtPoints(page) {
	return page.evaluate(() => {
		const svg = document.documentElement;
		const xpad = Number(svg.getAttribute('data-xpad') || 10);
		const W = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : Number(svg.getAttribute('width'));
		const m = svg.getScreenCTM();
		const rows = new Set(Array.from(document.querySelectorAll('#frames rect'), (r) => Number(r.getAttribute('y'))));
		const inArea = new Set();
		const inMargin = new Set();
		for (const y of rows) {
			const cy = m.d * (y + 7) + m.f;
			if (cy < 0 || cy >= window.innerHeight) continue;
			for (let x = 0.5; x < W; x += 2) {
				const el = document.elementFromPoint(m.a * x + m.e, cy);
				const frame = el && el.closest('#frames > * > *');
				if (!frame) continue;
				const t = frame.querySelector('title').textContent;
				const name = t.slice(0, t.lastIndexOf(' ('));
				(x > xpad && x < W - xpad ? inArea : inMargin).add(name);
			}
		}
		return { inArea: [...inArea], inMargin: [...inMargin] };
	});
}

// Screenshots of the left and right margins beside the frames (the pixels,
// as PNG buffers): they must not change when the graph is zoomed.
export async function marginShots(page) {
	const clips = await page.evaluate(() => {
		const svg = document.documentElement;
		const xpad = Number(svg.getAttribute('data-xpad') || 10);
		const W = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : Number(svg.getAttribute('width'));
		window.scrollTo(0, 0);
		const g = document.getElementById('frames').getBBox();
		const m = svg.getScreenCTM();
		const top = Math.max(0, m.d * g.y + m.f);
		const bottom = Math.min(window.innerHeight, m.d * (g.y + g.height) + m.f);
		// One pixel of the area's edge is left out: anti-aliasing at x = xpad.
		return [[0, m.a * (xpad - 1) + m.e], [m.a * (W - xpad + 1) + m.e, m.a * W + m.e]]
			.map(([l, r]) => ({ x: Math.ceil(l), y: Math.ceil(top), width: Math.floor(r - Math.ceil(l)), height: Math.floor(bottom - Math.ceil(top)) }));
	});
	return Promise.all(clips.map((clip) => page.screenshot({ clip })));
}
