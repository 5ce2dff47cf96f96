// bench/timing.mjs - timing the viewer in headless Chromium, shared by
// bench/views.mjs and bench/zoom.mjs.
//
// installTiming(page) defines, in the page:
//   fgTime(action) -> [handler, painted, next frame] in ms, all from the
//     moment the action starts: "handler", the action alone (an event
//     dispatched synchronously runs its handlers inside it); "painted",
//     until the browser has run style, layout and paint for the result (a
//     requestAnimationFrame callback, registered just before the action,
//     queues a task, which runs after that frame's rendering update);
//     "next frame", until the following animation frame starts (an upper
//     bound that includes waiting for vsync and the viewer's URL update,
//     which it makes after the frame). The callback is registered before
//     the action, so it runs before any the viewer registers.
//   fgComplete() -> ms until a view drawn in batches is complete (#fg-view
//     without aria-busy), from the last fgTime's start; -1 when none was
//     pending.
//   fgSettle() -> resolves after a frame and 50 ms more.
//   fgKey(key) dispatches a keydown on the document.
// Not tests: figures are noisy on a shared machine; take medians.

export async function installTiming(page) {
	await page.evaluate(() => {
		let start = 0;
		window.fgTime = (action) => new Promise((resolve) => {
			let handler = 0;
			requestAnimationFrame(() => {
				let done = -1;
				setTimeout(() => { done = performance.now(); }, 0);
				requestAnimationFrame(() => resolve([handler, (done < 0 ? performance.now() : done) - start, performance.now() - start]));
			});
			start = performance.now();
			action();
			handler = performance.now() - start;
		});
		window.fgComplete = () => new Promise((resolve) => {
			const busy = () => {
				const g = document.getElementById('fg-view');
				return g && g.hasAttribute('aria-busy');
			};
			const poll = () => {
				if (busy()) requestAnimationFrame(() => setTimeout(poll, 0));
				else resolve(performance.now() - start);
			};
			if (busy()) poll();
			else resolve(-1);
		});
		window.fgSettle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
		window.fgKey = (key) => document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
	});
}

export function median(a) {
	const s = [...a].sort((x, y) => x - y);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
