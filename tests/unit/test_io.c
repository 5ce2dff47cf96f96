/*
 * test_io.c - unit tests of input.c and output.c: lines and blocks give
 * back exactly the bytes put in (any line lengths, with or without a final
 * newline), gzip files read as their text, and -o files appear whole or not
 * at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "folded.h"
#include "internal.h" /* fg_input_trade_buffer */

/* A text of n lines of pseudo-random lengths (some long, some empty). */
static char *make_text(size_t lines, size_t *length, unsigned seed, bool final_newline)
{
	size_t capacity = 1 << 16, used = 0;
	char *text = malloc(capacity);
	for (size_t i = 0; i < lines; i++) {
		seed = seed * 1103515245u + 12345u;
		size_t n = (seed >> 16) % 7 == 0 ? 70000 + (seed >> 8) % 5000 : (seed >> 16) % 90;
		while (used + n + 2 > capacity)
			text = realloc(text, capacity *= 2);
		for (size_t k = 0; k < n; k++)
			text[used++] = (char)('a' + (k + i) % 26);
		if (i + 1 < lines || final_newline)
			text[used++] = '\n';
	}
	*length = used;
	return text;
}

static void test_lines_and_blocks(void)
{
	for (int final = 0; final <= 1; final++) {
		size_t length;
		char *text = make_text(300, &length, 7u + (unsigned)final, final);
		/* Lines: joined with '\n' they give the text back. */
		fg_input *in = fg_input_open_memory("mem", text, length);
		const char *line;
		size_t n, at = 0;
		int rc, same = 1;
		uint64_t count = 0;
		while ((rc = fg_input_read_line(in, &line, &n, NULL)) == 1) {
			count++;
			same &= at + n <= length && memcmp(text + at, line, n) == 0;
			at += n;
			if (at < length)
				same &= text[at++] == '\n';
		}
		CHECK(rc == 0 && same && at == length, "input: lines give the text back (final newline: %d)", final);
		CHECK(count == 300 && fg_input_line_number(in) == 300, "input: 300 lines counted");
		fg_input_close(in);
		/* Blocks: whole lines, concatenated they give the text back. */
		for (size_t want = 1; want <= (1u << 20); want *= 64) {
			in = fg_input_open_memory("mem", text, length);
			const char *block;
			at = 0;
			same = 1;
			int bounded = 1;
			while ((rc = fg_input_read_block(in, want, &block, &n, NULL)) == 1) {
				same &= at + n <= length && memcmp(text + at, block, n) == 0;
				at += n;
				same &= at == length || block[n - 1] == '\n';
				/* At most `want` bytes, unless one line is longer. */
				bounded &= n <= want || memchr(block, '\n', n - 1) == NULL;
			}
			CHECK(rc == 0 && same && at == length, "input: blocks of %zu+ bytes are whole lines, nothing lost", want);
			CHECK(bounded, "input: blocks asked for %zu bytes hold no more, but for one longer line", want);
			fg_input_close(in);
		}
		free(text);
	}
	fg_input *empty = fg_input_open_memory("empty", "", 0);
	const char *line;
	size_t n;
	CHECK(fg_input_read_line(empty, &line, &n, NULL) == 0, "input: an empty input has no line");
	fg_input_close(empty);
}

static void test_files(void)
{
	char dir[] = "/tmp/fg-test-io.XXXXXX";
	if (mkdtemp(dir) == NULL) {
		CHECK(0, "io: a temporary directory");
		return;
	}
	char path[256], gz[300], cmd[700];
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	fg_error err = {0};
	/* Atomic output: the old file stays until commit, abort keeps it. */
	fg_output *out = fg_output_open(path, &err);
	fg_output_puts(out, "old\n");
	CHECK(fg_output_commit(out, &err) == 0, "output: commit");
	out = fg_output_open(path, &err);
	fg_output_printf(out, "new %d\n", 42);
	fg_input *in = fg_input_open(path, &err);
	const char *line;
	size_t n;
	CHECK(in != NULL && fg_input_read_line(in, &line, &n, &err) == 1 && n == 3 && !memcmp(line, "old", 3),
	      "output: before commit, readers see the old file");
	fg_input_close(in);
	fg_output_abort(out);
	in = fg_input_open(path, &err);
	CHECK(in != NULL && fg_input_read_line(in, &line, &n, &err) == 1 && n == 3 && !memcmp(line, "old", 3),
	      "output: abort leaves the old file");
	fg_input_close(in);
	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l | grep -qx 1", dir);
	CHECK(system(cmd) == 0, "output: abort leaves no temporary file");

	/* gzip, when built with it: the same lines as the text. */
	snprintf(gz, sizeof(gz), "%s/in.gz", dir);
	snprintf(cmd, sizeof(cmd), "printf 'a;b 1\\nc 2' | gzip -c > %s", gz);
	if (fg_have_zlib() && system(cmd) == 0) {
		in = fg_input_open(gz, &err);
		int ok = in != NULL && fg_input_read_line(in, &line, &n, &err) == 1 && n == 5 &&
			 !memcmp(line, "a;b 1", 5) && fg_input_read_line(in, &line, &n, &err) == 1 &&
			 n == 3 && !memcmp(line, "c 2", 3) && fg_input_read_line(in, &line, &n, &err) == 0;
		CHECK(ok, "input: a gzip file reads as its text");
		fg_input_close(in);
	}
	/* Memory that runs out for a block (here: one of 1 PB asked for)
	 * says so, and not "(a line of 0 bytes)": no line was read. Not under
	 * AddressSanitizer, which aborts on so large a request. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FG_TEST_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(FG_TEST_ASAN)
	in = fg_input_open(path, &err);
	const char *block;
	int block_rc = in != NULL ? fg_input_read_block(in, (size_t)1 << 50, &block, &n, &err) : 0;
	CHECK(block_rc == FG_ENOMEM && strstr(err.message, "out of memory") != NULL &&
	      strstr(err.message, "line") == NULL,
	      "input: memory out for a block is no line of 0 bytes (%s)", err.message);
	fg_input_close(in);
#endif
	CHECK(fg_input_open("/nonexistent/fg", &err) == NULL && err.code == FG_EIO &&
	      strstr(err.message, "/nonexistent/fg") != NULL, "input: a missing file is FG_EIO naming it");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "io: cleaned up");
}

static void test_memory_output(void)
{
	fg_output *out = fg_output_open_memory();
	for (int i = 0; i < 100000; i++)
		fg_output_printf(out, "%d;", i % 10);
	size_t length;
	const char *data = fg_output_data(out, &length);
	CHECK(length == 200000 && data[0] == '0' && data[199998] == '9', "output: memory output keeps every byte");
	fg_output_abort(out);
}

/*
 * Reads path in blocks of `want` bytes: all of them joined into *text,
 * whether each held at most `want` bytes or one longer line, and the
 * final return code. With `trade` (the bound on a traded buffer; 0: none
 * traded), each block's buffer is traded for one of a ring of four (as
 * graph_read.c does), and every block must still hold its bytes when its
 * buffer goes back to the input (*kept), in a buffer within the bound.
 */
static int read_blocks(const char *path, size_t want, size_t trade, char **text, size_t *length,
		       bool *bounded, bool *kept, size_t *declined, fg_error *err)
{
	fg_input *in = fg_input_open(path, err);
	size_t capacity = 1;
	*text = malloc(capacity);
	*length = 0;
	*bounded = *kept = true;
	*declined = 0;
	char *ring[4] = {NULL};
	size_t ring_capacity[4] = {0}, at[4] = {0}, sizes[4] = {0}, traded = 0;
	const char *blocks[4] = {NULL};
	const char *block;
	size_t n;
	int rc = in != NULL ? 1 : -1;
	while (in != NULL && (rc = fg_input_read_block(in, want, &block, &n, err)) == 1) {
		*bounded &= n <= want || memchr(block, '\n', n - 1) == NULL;
		while (*length + n > capacity)
			*text = realloc(*text, capacity *= 2);
		memcpy(*text + *length, block, n);
		if (trade) {
			size_t k = traded++ % 4;
			if (blocks[k] != NULL)
				*kept &= memcmp(blocks[k], *text + at[k], sizes[k]) == 0;
			/* (Declined when a long line grew the input's buffer: then
			 * the block is copied, as graph_read.c does.) */
			int rc = fg_input_trade_buffer(in, trade, &ring[k], &ring_capacity[k]);
			if (rc == 1) {
				ring[k] = realloc(ring[k], n);
				ring_capacity[k] = n;
				memcpy(ring[k], block, n);
				block = ring[k];
				(*declined)++;
			}
			*kept &= rc >= 0 && block >= ring[k] && block + n <= ring[k] + ring_capacity[k] &&
				 ring_capacity[k] <= (trade > n ? trade : n);
			blocks[k] = block;
			at[k] = *length;
			sizes[k] = n;
		}
		*length += n;
	}
	for (size_t k = 0; k < 4; k++) {
		if (blocks[k] != NULL)
			*kept &= memcmp(blocks[k], *text + at[k], sizes[k]) == 0;
		free(ring[k]);
	}
	fg_input_close(in);
	return rc;
}

/* Blocks from a file (more bytes arrive as they are read): bounded after a
 * line longer than a block too; and before a read error (a truncated gzip
 * file), the same whole lines whatever the block size, then the error. */
static void test_file_blocks(void)
{
	char dir[] = "/tmp/fg-test-blocks.XXXXXX";
	if (mkdtemp(dir) == NULL) {
		CHECK(0, "io: a temporary directory");
		return;
	}
	char path[128], gz[160], cmd[1024];
	snprintf(path, sizeof(path), "%s/long.txt", dir);
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 5000000; i++) /* (past 4 input buffers) */
		fputc('x', f);
	fputs(" 5\n", f);
	for (int i = 0; i < 200000; i++)
		fprintf(f, "short;line;%d 1\n", i);
	fclose(f);
	char *text;
	size_t length;
	bool bounded, kept;
	size_t declined;
	fg_error err = {0};
	int rc = read_blocks(path, 1u << 19, 0, &text, &length, &bounded, &kept, &declined, &err);
	struct stat st;
	CHECK(rc == 0 && stat(path, &st) == 0 && (off_t)length == st.st_size,
	      "input: a file read in blocks gives all its bytes");
	CHECK(bounded, "input: blocks after a line longer than a block hold at most the bytes asked for");
	free(text);
	/* Traded: on this file, and on lines of any length. */
	char mixed[160];
	snprintf(mixed, sizeof(mixed), "%s/mixed.txt", dir);
	text = make_text(300, &length, 11u, true);
	f = fopen(mixed, "w");
	fwrite(text, 1, length, f);
	fclose(f);
	free(text);
	for (size_t want = 1; want <= (1u << 20); want *= 32) {
		char *traded;
		size_t traded_length;
		rc = read_blocks(path, want, 0, &text, &length, &bounded, &kept, &declined, &err);
		rc |= read_blocks(path, want, 4 * want, &traded, &traded_length, &bounded, &kept, &declined, &err);
		CHECK(rc == 0 && traded_length == length && memcmp(traded, text, length) == 0 && kept &&
			      bounded,
		      "input: blocks of %zu+ bytes whose buffers are traded away: all the bytes, "
		      "as many as asked for, each block kept intact", want);
		/* (The 5 MB line grew the input's buffer past 4 blocks.) */
		CHECK(declined > 0, "input: blocks of %zu+ bytes: the grown buffer is not traded", want);
		/* However large a bound the caller gives. */
		free(traded);
		rc = read_blocks(path, want, SIZE_MAX, &traded, &traded_length, &bounded, &kept, &declined,
				 &err);
		CHECK(rc == 0 && traded_length == length && kept && declined > 0,
		      "input: blocks of %zu+ bytes: after a line longer than a block, no buffer is traded",
		      want);
		free(traded);
		free(text);
		rc = read_blocks(mixed, want, 0, &text, &length, &bounded, &kept, &declined, &err);
		rc |= read_blocks(mixed, want, 4 * want, &traded, &traded_length, &bounded, &kept, &declined, &err);
		CHECK(rc == 0 && traded_length == length && memcmp(traded, text, length) == 0 && kept &&
			      bounded,
		      "input: the same with lines of any length (blocks of %zu+ bytes)", want);
		if (want == (1u << 20))
			CHECK(declined == 0, "input: blocks of 1 MiB+, lines under 80 KB: every buffer traded");
		free(traded);
		free(text);
	}

	snprintf(gz, sizeof(gz), "%s/cut.gz", dir);
	snprintf(cmd, sizeof(cmd),
		 "gzip -1 -c %s > %s.whole && head -c $(($(wc -c < %s.whole) * 9 / 10)) %s.whole > %s",
		 path, gz, gz, gz, gz);
	if (fg_have_zlib() && system(cmd) == 0) {
		char *first = NULL;
		size_t first_length = 0;
		bool same = true, failed = true;
		for (size_t want = 1; want <= (1u << 22); want *= 16) {
			err = (fg_error){0};
			rc = read_blocks(gz, want, want > 1 ? 4 * want : 0, &text, &length, &bounded, &kept, &declined, &err);
			failed &= rc == FG_EINVAL && strstr(err.message, "truncated gzip data") != NULL;
			same &= kept;
			same &= length > 0 && text[length - 1] == '\n';
			if (first == NULL) {
				first = text;
				first_length = length;
			} else {
				same &= length == first_length && memcmp(text, first, length) == 0;
				free(text);
			}
		}
		CHECK(failed, "input: a truncated gzip file ends in its error, for any block size");
		CHECK(same, "input: before it, the same whole lines for any block size");
		free(first);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "io: cleaned up");
}

/* A message longer than fg_error holds (a path near PATH_MAX) keeps its
 * start and its end, the reason, and cuts no UTF-8 character in two. */
static void test_long_message_of(size_t size)
{
	static char path[10000];
	size_t used = 0;
	while (used + 2 < size) {
		path[used++] = (char)0xc3; /* é */
		path[used++] = (char)0xa9;
	}
	path[used] = '\0';
	fg_error err = {0};
	fg_fail(&err, FG_EIO, "%s: %s", path, "File name too long");
	size_t length = strlen(err.message);
	const char *reason = ": File name too long";
	CHECK(length < sizeof(err.message) && length > strlen(reason) &&
	      strcmp(err.message + length - strlen(reason), reason) == 0,
	      "a long message ends with its reason (%.40s...)", err.message);
	const char *dots = strstr(err.message, "...");
	CHECK(dots != NULL && dots > err.message, "a long message is cut in its middle");
	bool whole = dots != NULL;
	for (const char *p = err.message; whole && p < dots; p += 2)
		whole = p + 1 < dots && (unsigned char)p[0] == 0xc3 && (unsigned char)p[1] == 0xa9;
	for (const char *p = dots ? dots + 3 : ""; whole && (unsigned char)*p >= 0x80; p += 2)
		whole = (unsigned char)p[0] == 0xc3 && (unsigned char)p[1] == 0xa9;
	CHECK(whole, "a long message cuts no character in two");
	fg_fail(&err, FG_EIO, "%s", "short");
	CHECK(strcmp(err.message, "short") == 0, "a short message is kept whole");
}

static void test_long_message(void)
{
	test_long_message_of(4000);
	/* Past 8 KB (a path longer than PATH_MAX given as an argument): the
	 * reason was cut off with the rest, and the last character in two. */
	test_long_message_of(9000);
}

int main(void)
{
	test_long_message();
	test_lines_and_blocks();
	test_file_blocks();
	test_files();
	test_memory_output();
	return check_exit();
}
