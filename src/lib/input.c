/*
 * input.c - reading files or stdin in large blocks, as lines or as blocks
 * of whole lines, with gzip inflated on the fly when built with zlib.
 *
 * One buffer per input holds the unread bytes; a line is returned as a
 * pointer into it, so nothing is copied per line. The buffer grows only
 * when a single line (or a requested block) is larger than it. A block's
 * reader may take the buffer holding it and give another in exchange
 * (fg_input_trade_buffer), rather than copy the block out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef FG_HAVE_ZLIB
#include <zlib.h>
#endif

#include "internal.h"

#define INPUT_BUFFER (1u << 20)

struct fg_input {
	int fd;
	char *name;
	char *buffer;
	size_t capacity;
	size_t start, end;   /* unread bytes are buffer[start, end) */
	size_t scanned;      /* buffer[start, scanned) is known to hold no '\n' */
	bool eof;            /* no more bytes will come from fd/inflate */
	fg_error failed;     /* the error met after the bytes left (block mode) */
	bool sniffed;        /* gzip magic checked */
	bool outgrown;       /* a line longer than a block was read (block mode) */
	uint64_t line;
#ifdef FG_HAVE_ZLIB
	bool gzip;
	z_stream z;
	unsigned char *raw;  /* compressed bytes not yet inflated */
	bool raw_eof;
	bool inside_member;  /* inflate has started a member it has not ended */
	bool member_ended;   /* a gzip member has ended: what follows must be one too */
#endif
};

bool fg_have_zlib(void)
{
#ifdef FG_HAVE_ZLIB
	return true;
#else
	return false;
#endif
}

fg_input *fg_input_open(const char *path, fg_error *err)
{
	bool is_stdin = path == NULL || strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	fg_input *in = calloc(1, sizeof(*in));
	if (in == NULL) {
		fg_fail(err, FG_ENOMEM, "%s: out of memory", name);
		return NULL;
	}
	in->name = strdup(name);
	in->capacity = INPUT_BUFFER;
	in->buffer = malloc(in->capacity);
	if (in->name == NULL || in->buffer == NULL) {
		fg_fail(err, FG_ENOMEM, "%s: out of memory", name);
		fg_input_close(in);
		return NULL;
	}
	if (is_stdin) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			fg_fail(err, FG_EIO, "%s: %s", name, strerror(errno));
			in->fd = -1;
			fg_input_close(in);
			return NULL;
		}
#ifdef POSIX_FADV_SEQUENTIAL
		posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	}
	return in;
}

fg_input *fg_input_open_memory(const char *name, const void *bytes, size_t length)
{
	fg_input *in = calloc(1, sizeof(*in));
	if (in == NULL)
		return NULL;
	in->fd = -1;
	in->name = strdup(name != NULL ? name : "<memory>");
	in->capacity = length + 1;
	in->buffer = malloc(in->capacity);
	if (in->name == NULL || in->buffer == NULL) {
		fg_input_close(in);
		return NULL;
	}
	if (length > 0)
		memcpy(in->buffer, bytes, length);
	in->end = length;
	in->eof = in->sniffed = true;
	return in;
}

void fg_input_close(fg_input *in)
{
	if (in == NULL)
		return;
	if (in->fd > STDIN_FILENO)
		close(in->fd);
#ifdef FG_HAVE_ZLIB
	if (in->gzip)
		inflateEnd(&in->z);
	free(in->raw);
#endif
	free(in->buffer);
	free(in->name);
	free(in);
}

const char *fg_input_name(const fg_input *in) { return in->name; }
uint64_t fg_input_line_number(const fg_input *in) { return in->line; }

/* read(2) that retries on EINTR; returns bytes read, 0 at the end, -1. */
static ssize_t read_some(int fd, void *into, size_t length)
{
	for (;;) {
		ssize_t n = read(fd, into, length);
		if (n >= 0 || errno != EINTR)
			return n;
	}
}

#ifdef FG_HAVE_ZLIB
#define RAW_BUFFER (1u << 18)

/* first: the bytes already read while sniffing, to be copied into raw. */
static int start_gzip(fg_input *in, size_t first, fg_error *err)
{
	in->raw = malloc(first > RAW_BUFFER ? first : RAW_BUFFER);
	if (in->raw == NULL)
		return fg_fail(err, FG_ENOMEM, "%s: out of memory", in->name);
	memset(&in->z, 0, sizeof(in->z));
	if (inflateInit2(&in->z, 15 + 32) != Z_OK)
		return fg_fail(err, FG_ENOMEM, "%s: cannot start inflating", in->name);
	in->gzip = true;
	return 0;
}

/* Reads more compressed bytes into raw, after the `kept` still unread ones
 * (moved to its start). Returns 0 or <0. */
static int read_raw(fg_input *in, uInt kept, fg_error *err)
{
	if (kept > 0)
		memmove(in->raw, in->z.next_in, kept);
	ssize_t n = read_some(in->fd, in->raw + kept, RAW_BUFFER - kept);
	if (n < 0)
		return fg_fail(err, FG_EIO, "%s: %s", in->name, strerror(errno));
	if (n == 0)
		in->raw_eof = true;
	in->z.next_in = in->raw;
	in->z.avail_in = kept + (uInt)n;
	return 0;
}

/* Inflates into `into`; returns bytes produced (0 only at the end) or <0. */
static ssize_t inflate_some(fg_input *in, unsigned char *into, size_t length,
			    fg_error *err)
{
	in->z.next_out = into;
	in->z.avail_out = (uInt)(length > (1u << 30) ? (1u << 30) : length);
	uInt wanted = in->z.avail_out;
	while (in->z.avail_out == wanted) {
		int rc = in->z.avail_in == 0 && !in->raw_eof ? read_raw(in, 0, err) : 0;
		if (rc != 0)
			return rc;
		if (in->z.avail_in == 0 && in->raw_eof)
			break;
		/* Zero bytes after a member are padding (tape blocks), which
		 * gzip -d accepts too; anything else must be another member. */
		if (!in->inside_member) {
			while (in->z.avail_in > 0 && *in->z.next_in == 0) {
				in->z.next_in++;
				in->z.avail_in--;
			}
			if (in->z.avail_in == 0)
				continue;
		}
		/* After a member, only another gzip member: its magic is looked
		 * at here (both bytes, even when a pipe gave one), so that a
		 * damaged member is not taken for trailing data, nor trailing
		 * data for a damaged member. */
		if (!in->inside_member && in->member_ended) {
			if (in->z.avail_in == 1 && !in->raw_eof && (rc = read_raw(in, 1, err)) != 0)
				return rc;
			if (in->z.avail_in < 2 || in->z.next_in[0] != 0x1f || in->z.next_in[1] != 0x8b)
				return fg_fail(err, FG_EINVAL, "%s: trailing data after the gzip data "
					       "(not another gzip member)", in->name);
		}
		rc = inflate(&in->z, Z_NO_FLUSH);
		in->inside_member = rc != Z_STREAM_END;
		if (rc == Z_STREAM_END) {
			/* Concatenated gzip members are one stream, as for gzip -d;
			 * only gzip members (a zlib stream after one is not). */
			in->member_ended = true;
			if (inflateReset2(&in->z, 15 + 16) != Z_OK)
				return fg_fail(err, FG_EINVAL, "%s: corrupt gzip data", in->name);
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			return fg_fail(err, FG_EINVAL, "%s: corrupt gzip data (%s)", in->name,
				       in->z.msg ? in->z.msg : "inflate failed");
		} else if (rc == Z_BUF_ERROR && in->z.avail_in == 0 && in->raw_eof) {
			break;
		}
	}
	size_t produced = wanted - in->z.avail_out;
	if (produced == 0 && in->inside_member)
		return fg_fail(err, FG_EINVAL, "%s: truncated gzip data", in->name);
	return (ssize_t)produced;
}
#endif

/* Reads more bytes to buffer[end, capacity), `most` of them at most (0:
 * no limit). Returns 0 or <0. */
static int fill(fg_input *in, size_t most, fg_error *err)
{
	unsigned char *into = (unsigned char *)in->buffer + in->end;
	size_t room = in->capacity - in->end;
	if (most > 0 && most < room)
		room = most;
	ssize_t n;
	if (!in->sniffed) {
		in->sniffed = true;
		/* A pipe may deliver one byte first: read until the two bytes
		 * of the gzip magic are there, or the input ends. */
		n = 0;
		for (ssize_t got = 1; n < 2 && got > 0; n += got) {
			got = read_some(in->fd, into + n, room - (size_t)n);
			if (got < 0)
				return fg_fail(err, FG_EIO, "%s: %s", in->name, strerror(errno));
		}
		if (n >= 2 && into[0] == 0x1f && into[1] == 0x8b) {
#ifdef FG_HAVE_ZLIB
			int rc = start_gzip(in, (size_t)n, err);
			if (rc != 0)
				return rc;
			memcpy(in->raw, into, (size_t)n);
			in->z.next_in = in->raw;
			in->z.avail_in = (uInt)n;
			n = inflate_some(in, into, room, err);
			if (n < 0)
				return (int)n;
#else
			return fg_fail(err, FG_ENOZLIB,
				       "%s: gzip input, but this fg was built without zlib "
				       "(gunzip it first: zcat FILE | ...)", in->name);
#endif
		}
	} else {
#ifdef FG_HAVE_ZLIB
		if (in->gzip)
			n = inflate_some(in, into, room, err);
		else
#endif
			n = read_some(in->fd, into, room);
		if (n < 0)
			return n == -1 ? fg_fail(err, FG_EIO, "%s: %s", in->name, strerror(errno))
				       : (int)n;
	}
	if (n == 0)
		in->eof = true;
	in->end += (size_t)n;
	return 0;
}

/* Makes room after end: moves unread bytes to the front, or grows. */
static int make_room(fg_input *in, size_t at_least, fg_error *err)
{
	if (in->start > 0) {
		size_t unread = in->end - in->start;
		memmove(in->buffer, in->buffer + in->start, unread);
		in->scanned -= in->start;
		in->start = 0;
		in->end = unread;
	}
	if (in->capacity - in->end < at_least) {
		size_t want = in->capacity;
		while (want - in->end < at_least)
			want *= 2;
		char *grown = realloc(in->buffer, want);
		/* The bytes held are a line only when they hold no '\n';
		 * growing for a block of lines (or an empty buffer: memory ran
		 * out before reading) is not "a line of 0 bytes". */
		if (grown == NULL && in->end > 0 && memchr(in->buffer, '\n', in->end) == NULL)
			return fg_fail(err, FG_ENOMEM, "%s: out of memory (a line of %zu bytes)",
				       in->name, in->end);
		if (grown == NULL)
			return fg_fail(err, FG_ENOMEM, "%s: out of memory", in->name);
		in->buffer = grown;
		in->capacity = want;
	}
	return 0;
}

int fg_input_read_line(fg_input *in, const char **line, size_t *length, fg_error *err)
{
	for (;;) {
		char *from = in->buffer + in->scanned;
		char *newline = memchr(from, '\n', in->end - in->scanned);
		if (newline != NULL) {
			*line = in->buffer + in->start;
			*length = (size_t)(newline - *line);
			in->start = in->scanned = (size_t)(newline - in->buffer) + 1;
			in->line++;
			return 1;
		}
		in->scanned = in->end;
		if (in->eof) {
			if (in->start == in->end)
				return 0;
			*line = in->buffer + in->start;
			*length = in->end - in->start;
			in->start = in->scanned = in->end;
			in->line++;
			return 1;
		}
		size_t room = in->capacity - in->end;
		if (room < INPUT_BUFFER / 4 || in->start > in->capacity / 2) {
			int rc = make_room(in, INPUT_BUFFER / 4, err);
			if (rc != 0)
				return rc;
		}
		int rc = fill(in, 0, err);
		if (rc != 0)
			return rc;
	}
}

int fg_input_peek(fg_input *in, size_t want, const char **bytes, size_t *length,
		  fg_error *err)
{
	while (in->end - in->start < want && !in->eof) {
		size_t have = in->end - in->start;
		if (in->capacity - in->end < want - have) {
			int rc = make_room(in, want - have, err);
			if (rc != 0)
				return rc;
		}
		int rc = fill(in, 0, err);
		if (rc != 0)
			return rc;
	}
	*bytes = in->buffer + in->start;
	*length = in->end - in->start;
	return in->eof ? 1 : 0;
}

/*
 * A read error (or no room) met in block mode: the whole lines read before
 * it are still given, in blocks as usual, and the error after them, so
 * that what a caller meets before an error does not depend on the size of
 * its blocks. The bytes after the last '\n' (a line cut short) are
 * dropped. Returns 0 when there are such lines, else rc (err is filled).
 */
static int fail_after_lines(fg_input *in, int rc, const fg_error *e, fg_error *err)
{
	const char *first = in->buffer + (in->scanned > in->start ? in->scanned : in->start);
	const char *p = in->buffer + in->end;
	while (p > first && p[-1] != '\n')
		p--;
	if (p == first) {
		if (err != NULL)
			*err = *e;
		return rc;
	}
	in->end = (size_t)(p - in->buffer);
	in->eof = true;
	in->failed = *e;
	in->failed.code = rc;
	return 0;
}

int fg_input_read_block(fg_input *in, size_t want, const char **block, size_t *length,
			fg_error *err)
{
	if (want == 0)
		want = 1;
	size_t need = want; /* bytes to have before looking for a block's end */
	for (;;) {
		size_t have = in->end - in->start;
		if (have >= need || in->eof) {
			char *first = in->buffer + in->start, *end = in->buffer + in->end;
			char *last = NULL;
			if (in->eof && have <= want) {
				last = end;
			} else {
				/* End just after the last '\n' of the first `want` bytes,
				 * else after the first one past them (a line longer than
				 * a block); bytes before `scanned` hold none (a long line
				 * is scanned once, not once per MiB that arrives). */
				char *known = in->buffer + (in->scanned > in->start ? in->scanned : in->start);
				char *limit = first + want;
				for (char *p = limit; p > known; p--)
					if (p[-1] == '\n') {
						last = p;
						break;
					}
				if (last == NULL) {
					char *from = known > limit ? known : limit;
					char *newline = memchr(from, '\n', (size_t)(end - from));
					if (newline != NULL)
						last = newline + 1;
					else if (in->eof)
						last = end;
					else
						in->scanned = in->end;
				}
			}
			if (last != NULL && last > first) {
				*block = first;
				*length = (size_t)(last - first);
				in->start = in->scanned = (size_t)(last - in->buffer);
				return 1;
			}
			if (in->eof) {
				if (in->failed.code == 0)
					return 0;
				if (err != NULL)
					*err = in->failed;
				return in->failed.code;
			}
			need = have + INPUT_BUFFER; /* one line longer than the block */
			in->outgrown = true;
		}
		fg_error e = {0};
		int rc = 0;
		if (in->capacity - in->end < need - (in->end - in->start) ||
		    in->capacity - in->end < INPUT_BUFFER / 4) {
			size_t more = need > have ? need - have : INPUT_BUFFER / 4;
			rc = make_room(in, more < INPUT_BUFFER / 4 ? INPUT_BUFFER / 4 : more, &e);
		}
		/* Not much more than the block needs: what is read past it
		 * stays here, and fg_input_trade_buffer copies it. */
		if (rc == 0)
			rc = fill(in, need - have > INPUT_BUFFER / 16 ? need - have : INPUT_BUFFER / 16, &e);
		if (rc != 0 && (rc = fail_after_lines(in, rc, &e, err)) != 0)
			return rc;
	}
}

int fg_input_trade_buffer(fg_input *in, size_t most, char **buffer, size_t *capacity)
{
	if (in->outgrown || in->capacity > most)
		return 1;
	size_t unread = in->end - in->start;
	size_t wanted = in->capacity > unread ? in->capacity : unread + 1;
	char *fresh = *buffer;
	if (*capacity < wanted) {
		fresh = malloc(wanted); /* (the old contents are not needed) */
		if (fresh == NULL)
			return FG_ENOMEM;
		free(*buffer);
		*capacity = wanted;
	}
	memcpy(fresh, in->buffer + in->start, unread);
	*buffer = in->buffer;
	size_t traded = in->capacity;
	in->buffer = fresh;
	in->capacity = *capacity;
	*capacity = traded;
	in->scanned -= in->start;
	in->start = 0;
	in->end = unread;
	return 0;
}
