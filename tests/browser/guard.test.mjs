// guard.test.mjs - the viewer's guard against regular expressions that
// backtrack for ages (src/viewer/search.js, mayBacktrack), run in Node on
// its own: Chromium may fall back to a linear engine on some patterns, so a
// page that does not freeze does not show the guard works (each dangerous
// term below takes V8 seconds to minutes on a name of 30 to 60 characters
// that nearly matches: '}' x 44 for the '}?' one).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = readFileSync(join(here, '..', '..', 'src', 'viewer', 'search.js'), 'utf8');
const text = /^function mayBacktrack\(term\) \{[\s\S]*?^\}/m.exec(source);
assert.ok(text, 'mayBacktrack is in search.js');
const mayBacktrack = new Function(`${text[0]}\nreturn mayBacktrack;`)();

test('terms that backtrack for ages are taken literally', () => {
	for (const term of ['(.|.)*!', '(a+)+$', '.*.*!', '.{0,900}.{0,900}!', '.?'.repeat(20) + '.{20}QQQ',
		'}?'.repeat(22) + '}{22}Q', 'a?b?c?d?', '.?.?.?.*x', '(x)\\1', '(a|.)'.repeat(39) + 'b']) {
		assert.equal(mayBacktrack(term), true, term);
	}
});

test('ordinary regular expressions stay regular expressions', () => {
	for (const term of ['colou?r', 'a?b?c?', 'x.*?y', 'a{2,3}?b', '(?:ab)c', '[?*+]x.*y', '^main$', 'number_1[0-9]_of',
		'std::vector<.*>', 'read|write|open|close', '(read|write)_(file|dir)']) {
		assert.equal(mayBacktrack(term), false, term);
	}
});


// patternRegExp drops a leading .* (.+ becomes .): the same test result on
// every name, but linear where the term as typed costs the square of a
// name's length (?s=.*x froze a tab for 17 s on 20,000-character names).
const functions = ['mayBacktrack', 'patternRegExp', 'shownPattern'].map((name) => {
	const found = new RegExp(`^function ${name}\\([^)]*\\) \\{[\\s\\S]*?^\\}`, 'm').exec(source);
	assert.ok(found, `${name} is in search.js`);
	return found[0];
});
const { patternRegExp, shownPattern } = new Function(
	`${functions.join('\n')}\nreturn { patternRegExp, shownPattern };`)();

test('a leading .* or .+ is dropped, with the same result on every name, and the term is still shown', () => {
	const names = ['', 'x', 'ax', 'xa', 'a\nx', 'a\u2028x', '\u2028x', 'abc', 'a1x', 'main', 'yx', '^x', '|'];
	for (const term of ['.*x', '.*?x', '.+x', '.+?x', '.*^x', '.*|x', '.*$', '.*\\dx', '.+', '.*', '.*?', '.+?', '.*?*x',
		'.**x', '.*{2}x', '.+|y', '.*(?<=a)x']) {
		const re = patternRegExp(term, '');
		let typed = null;
		try {
			typed = new RegExp(term, '');
		} catch (e) {
			typed = null; // (invalid: taken literally, as before)
		}
		for (const name of names) {
			const want = typed ? typed.test(name) : name.includes(term);
			assert.equal(re.test(name), want, `${term} on ${JSON.stringify(name)}`);
		}
		if (typed) {
			assert.equal(shownPattern(re), term, 'the term as typed is shown');
		}
	}
	assert.equal(patternRegExp('.*x', '').source, 'x');
	assert.equal(patternRegExp('.*?x', 'i').source, 'x');
	assert.equal(patternRegExp('.+x', '').source, '.x');
	assert.equal(patternRegExp('.*', '').source, '.*', 'nothing after it: kept');
});

// V8 compiles a regular expression at its first test and refuses one of
// 32,767 characters or more ("Regular expression too large"): a ?s= or
// ?hide= that long threw out of the viewer's restore, leaving the rest of
// the URL unapplied.
test('a term too long for a regular expression is matched as text, with or without case', () => {
	const term = 'aB'.repeat(20000);
	for (const flags of ['', 'i']) {
		const re = patternRegExp(term, flags);
		assert.equal(re.test(`x${term}y`), true, `${flags}: a name holding the term`);
		assert.equal(re.test(term.slice(1)), false, `${flags}: a name without it`);
		assert.equal(re.test(`x${term.toLowerCase()}y`), flags === 'i', `${flags}: the term in lower case`);
		assert.equal(shownPattern(re), term, 'shown as the literal text it is taken as');
	}
});
