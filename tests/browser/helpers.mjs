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

// ---- the live DOM, read through the contract only ------------------------

// All frames: name (before the last " ("), title, geometry, class, label, fill.
export function readFrames(page) {
	return page.evaluate(() => Array.from(document.querySelectorAll('#frames rect')).map((rect) => {
		const el = rect.parentNode;
		const title = el.querySelector('title').textContent;
		const text = el.querySelector('text');
		const p = title.lastIndexOf(' (');
		return {
			name: p >= 0 ? title.slice(0, p) : title,
			title,
			x: Number(rect.getAttribute('x')),
			y: Number(rect.getAttribute('y')),
			width: Number(rect.getAttribute('width')),
			cls: el.getAttribute('class') || '',
			label: text ? text.textContent : '',
			fill: rect.getAttribute('fill'),
			display: getComputedStyle(el).display,
		};
	}));
}

// Client-space centre of the rect of the frame called `name`, scrolled into view.
export async function centreOf(page, name) {
	const box = await page.evaluate((n) => {
		for (const rect of document.querySelectorAll('#frames rect')) {
			const t = rect.parentNode.querySelector('title').textContent;
			if (t.slice(0, t.lastIndexOf(' (')) === n) {
				rect.scrollIntoView({ block: 'center', inline: 'center' });
				const b = rect.getBoundingClientRect();
				return { x: b.x + b.width / 2, y: b.y + b.height / 2, w: b.width };
			}
		}
		return null;
	}, name);
	if (!box) throw new Error(`no frame called ${name}`);
	return box;
}
