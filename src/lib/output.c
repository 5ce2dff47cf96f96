/*
 * output.c - buffered output to stdout, or to a file replaced atomically.
 *
 * A cron job that writes an SVG into a web directory must never publish
 * half a file: bytes go to a temporary file beside the target, and only a
 * complete, flushed and synced file is renamed over it. Any write error is
 * remembered (the first one wins) and reported by fg_output_commit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define OUTPUT_BUFFER (1u << 18)
#define MEMORY_BUFFER (1u << 12) /* memory outputs copy anyway: stay small */

struct fg_output {
	int fd;
	char *path;        /* the target, NULL for stdout */
	char *temporary;   /* the file being written, NULL for stdout */
	char *buffer;
	size_t used, capacity; /* capacity of buffer */
	int error;         /* errno of the first failed write, 0 if none */
	bool in_memory;    /* fg_output_open_memory: bytes go to memory */
	char *memory;
	size_t memory_length, memory_capacity;
};

static const char *display_name(const fg_output *out)
{
	return out->path ? out->path : "<stdout>";
}

fg_output *fg_output_open(const char *path, fg_error *err)
{
	fg_output *out = calloc(1, sizeof(*out));
	char *buffer = malloc(OUTPUT_BUFFER);
	if (out == NULL || buffer == NULL) {
		free(out);
		free(buffer);
		fg_fail(err, FG_ENOMEM, "out of memory");
		return NULL;
	}
	out->buffer = buffer;
	out->capacity = OUTPUT_BUFFER;
	if (path == NULL || strcmp(path, "-") == 0) {
		out->fd = STDOUT_FILENO;
		return out;
	}
	size_t length = strlen(path);
	out->path = strdup(path);
	out->temporary = malloc(length + 16);
	if (out->path == NULL || out->temporary == NULL) {
		fg_fail(err, FG_ENOMEM, "out of memory");
		fg_output_abort(out);
		return NULL;
	}
	/* dir/.name.XXXXXX: same directory, so rename(2) is atomic. */
	const char *slash = strrchr(path, '/');
	size_t dir_length = slash ? (size_t)(slash - path) + 1 : 0;
	memcpy(out->temporary, path, dir_length);
	snprintf(out->temporary + dir_length, length + 16 - dir_length, ".%s.XXXXXX",
		 path + dir_length);
	out->fd = mkostemp(out->temporary, O_CLOEXEC);
	if (out->fd < 0) {
		fg_fail(err, FG_EIO, "%s: cannot create a temporary file: %s", path,
			strerror(errno));
		free(out->temporary);
		out->temporary = NULL;
		fg_output_abort(out);
		return NULL;
	}
	/* mkstemp makes the file private; give it the mode a plain create (or
	 * the file being replaced) would have, so a web server can read it. */
	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(out->fd, mode);
	return out;
}

static void flush(fg_output *out);

fg_output *fg_output_open_memory(void)
{
	fg_output *out = calloc(1, sizeof(*out));
	if (out == NULL || (out->buffer = malloc(MEMORY_BUFFER)) == NULL) {
		free(out);
		return NULL;
	}
	out->fd = -1;
	out->in_memory = true;
	out->capacity = MEMORY_BUFFER;
	return out;
}

const char *fg_output_data(fg_output *out, size_t *length)
{
	flush(out);
	*length = out->memory_length;
	return out->memory != NULL ? out->memory : "";
}

static void write_all(fg_output *out, const char *bytes, size_t length)
{
	if (out->in_memory) {
		if (out->error == 0 &&
		    fg_grow((void **)&out->memory, &out->memory_capacity, out->memory_length + length, 1) != 0)
			out->error = ENOMEM;
		if (out->error == 0 && length > 0) {
			memcpy(out->memory + out->memory_length, bytes, length);
			out->memory_length += length;
		}
		return;
	}
	while (length > 0 && out->error == 0) {
		ssize_t n = write(out->fd, bytes, length);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			out->error = errno;
			return;
		}
		bytes += n;
		length -= (size_t)n;
	}
}

static void flush(fg_output *out)
{
	write_all(out, out->buffer, out->used);
	out->used = 0;
}

int fg_output_write(fg_output *out, const void *bytes, size_t length)
{
	if (out->error)
		return FG_EIO;
	if (length > out->capacity - out->used) {
		flush(out);
		if (length >= out->capacity) {
			write_all(out, bytes, length);
			return out->error ? FG_EIO : 0;
		}
	}
	memcpy(out->buffer + out->used, bytes, length);
	out->used += length;
	return 0;
}

int fg_output_puts(fg_output *out, const char *text)
{
	return fg_output_write(out, text, strlen(text));
}

int fg_output_printf(fg_output *out, const char *format, ...)
{
	char small[512];
	va_list args;
	va_start(args, format);
	int n = vsnprintf(small, sizeof(small), format, args);
	va_end(args);
	if (n < 0)
		return FG_EINVAL;
	if ((size_t)n < sizeof(small))
		return fg_output_write(out, small, (size_t)n);
	char *big = malloc((size_t)n + 1);
	if (big == NULL)
		return FG_ENOMEM;
	va_start(args, format);
	vsnprintf(big, (size_t)n + 1, format, args);
	va_end(args);
	int rc = fg_output_write(out, big, (size_t)n);
	free(big);
	return rc;
}

static void release(fg_output *out)
{
	free(out->memory);
	free(out->path);
	free(out->temporary);
	free(out->buffer);
	free(out);
}

int fg_output_commit(fg_output *out, fg_error *err)
{
	flush(out);
	int rc = 0;
	if (out->in_memory) {
		rc = out->error ? fg_fail(err, FG_ENOMEM, "out of memory") : 0;
		release(out);
		return rc;
	}
	if (out->temporary == NULL) {
		if (out->error)
			rc = fg_fail(err, FG_EIO, "%s: write failed: %s", display_name(out),
				     strerror(out->error));
		release(out);
		return rc;
	}
	if (out->error == 0 && fsync(out->fd) != 0 && errno != EINVAL)
		out->error = errno;
	if (close(out->fd) != 0 && out->error == 0)
		out->error = errno;
	out->fd = -1;
	if (out->error == 0 && rename(out->temporary, out->path) != 0)
		out->error = errno;
	if (out->error) {
		rc = fg_fail(err, FG_EIO, "%s: write failed: %s", out->path,
			     strerror(out->error));
		unlink(out->temporary);
	}
	release(out);
	return rc;
}

void fg_output_abort(fg_output *out)
{
	if (out == NULL)
		return;
	if (out->temporary != NULL && !out->in_memory) {
		if (out->fd >= 0)
			close(out->fd);
		unlink(out->temporary);
	}
	release(out);
}
