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
#include <limits.h>
#include <stdatomic.h>
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
	bool replaces;     /* the temporary replaces an existing file: */
	uid_t uid;         /* its owner and group, */
	gid_t gid;
	mode_t mode;       /* and the mode the result gets */
	char *memory;
	size_t memory_length, memory_capacity;
};

static void forget_temporary(const char *name);

static void release(fg_output *out)
{
	if (out->temporary != NULL)
		forget_temporary(out->temporary);
	free(out->memory);
	free(out->path);
	free(out->temporary);
	free(out->buffer);
	free(out);
}

static const char *display_name(const fg_output *out)
{
	return out->path ? out->path : "<stdout>";
}

/*
 * The temporary files being written, for fg_output_remove_temporaries (a
 * signal handler's cleanup). The one piece of process-wide state in the
 * library: a signal cannot be handed a context. Slots are claimed and
 * released atomically, so outputs may be opened from several threads.
 */
#define LIVE_MAX 16
static char *_Atomic live[LIVE_MAX];

static void remember_temporary(char *name)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		char *expected = NULL;
		if (atomic_compare_exchange_strong(&live[i], &expected, name))
			return;
	}
}

static void forget_temporary(const char *name)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		char *expected = (char *)name;
		if (atomic_compare_exchange_strong(&live[i], &expected, NULL))
			return;
	}
}

void fg_output_remove_temporaries(void)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		char *name = atomic_exchange(&live[i], NULL);
		if (name != NULL)
			unlink(name);
	}
}

/*
 * The descriptor an -o path means, -1 if none: the one it names
 * (/dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N),
 * whatever it is open on, as "-" means stdout; or stdout or stderr where
 * the path names the regular file it is open on otherwise (/dev//stdout,
 * a link to /dev/stdout, the file's own name). Replaced, that file would
 * lose what the shell wrote before ("-o /dev/stdout >> app.log"), and the
 * shell's descriptor would be left on the old one; reopened, a socket
 * refuses, and another user's pipe may.
 */
static int descriptor_of(const char *path)
{
	if (strcmp(path, "/dev/stdin") == 0)
		return STDIN_FILENO;
	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	const char *digits = strncmp(path, "/dev/fd/", 8) == 0 ? path + 8
			     : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14 : NULL;
	if (digits != NULL && fg_is_digit((unsigned char)*digits)) {
		long n = 0;
		for (; fg_is_digit((unsigned char)*digits) && n <= INT_MAX / 10; digits++)
			n = n * 10 + (*digits - '0');
		if (*digits == '\0' && n <= INT_MAX)
			return (int)n;
	}
	struct stat open, file;
	if (stat(path, &file) != 0 || !S_ISREG(file.st_mode))
		return -1;
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
		if (fstat(fd, &open) == 0 && open.st_dev == file.st_dev && open.st_ino == file.st_ino)
			return fd;
	return -1;
}

/* A dangling symbolic link's end: the path the last link of the chain
 * names (relative to that link's directory), to create; NULL (errno set)
 * if the chain is too long. */
static char *dangling_end(const char *path)
{
	char *at = strdup(path);
	for (int hops = 0; at != NULL; hops++) {
		struct stat st;
		if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
			return at;
		if (hops == 40) {
			free(at);
			errno = ELOOP;
			return NULL;
		}
		char link[PATH_MAX];
		ssize_t n = readlink(at, link, sizeof(link) - 1);
		if (n < 0) {
			free(at);
			return NULL;
		}
		link[n] = '\0';
		const char *slash = strrchr(at, '/');
		size_t dir = link[0] != '/' && slash != NULL ? (size_t)(slash - at) + 1 : 0;
		char *next = malloc(dir + (size_t)n + 1);
		if (next != NULL) {
			memcpy(next, at, dir);
			memcpy(next + dir, link, (size_t)n + 1);
		}
		free(at);
		at = next;
	}
	errno = ENOMEM;
	return NULL;
}

/*
 * The file to replace: path itself, or for a symbolic link the file it
 * points to (the link stays a link), or would point to once created (a
 * dangling link, as a shell redirection creates it). *through is set when
 * the target exists and is not a regular file (a FIFO, /dev/null, a
 * terminal): such a file is written to directly, as a shell redirection
 * would.
 */
static char *resolve_target(const char *path, bool *through, fg_error *err)
{
	struct stat st;
	*through = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	char *target = NULL;
	if (!*through && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		target = realpath(path, NULL);
		if (target == NULL && errno == ENOENT)
			target = dangling_end(path);
		if (target == NULL) {
			fg_fail(err, errno == ENOMEM ? FG_ENOMEM : FG_EIO, "%s: %s", path,
				errno == ENOMEM ? "out of memory" : strerror(errno));
			return NULL;
		}
		return target;
	}
	target = strdup(path);
	if (target == NULL)
		fg_fail(err, FG_ENOMEM, "%s: out of memory", path);
	return target;
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
	if (path[0] == '\0') {
		fg_fail(err, FG_EIO, "cannot write to an empty file name");
		release(out);
		return NULL;
	}
	int descriptor = descriptor_of(path);
	if (descriptor >= 0) {
		/* (a copy: committing closes it, not the caller's) */
		int flags = fcntl(descriptor, F_GETFL);
		if (flags >= 0 && (flags & O_ACCMODE) == O_RDONLY) {
			fg_fail(err, FG_EIO, "%s: open for reading only", path);
			release(out);
			return NULL;
		}
		out->fd = flags < 0 ? -1 : fcntl(descriptor, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		if (out->fd < 0) {
			fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
			release(out);
			return NULL;
		}
		out->path = strdup(path);
		if (out->path == NULL) {
			fg_fail(err, FG_ENOMEM, "%s: out of memory", path);
			fg_output_abort(out);
			return NULL;
		}
		return out;
	}
	bool through;
	out->fd = -1;
	out->path = resolve_target(path, &through, err);
	if (out->path == NULL) {
		release(out);
		return NULL;
	}
	if (through) {
		out->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (out->fd < 0) {
			fg_fail(err, FG_EIO, "%s: %s", path, strerror(errno));
			release(out);
			return NULL;
		}
		return out;
	}
	/* dir/.name.XXXXXX: same directory, so rename(2) is atomic; a long
	 * name is shortened so the temporary name fits NAME_MAX. */
	const char *target = out->path;
	size_t length = strlen(target);
	const char *slash = strrchr(target, '/');
	size_t dir_length = slash ? (size_t)(slash - target) + 1 : 0;
	size_t base_length = length - dir_length;
	if (base_length > NAME_MAX - 8)
		base_length = NAME_MAX - 8;
	out->temporary = malloc(dir_length + base_length + 9);
	if (out->temporary == NULL) {
		fg_fail(err, FG_ENOMEM, "%s: out of memory", path);
		release(out);
		return NULL;
	}
	memcpy(out->temporary, target, dir_length);
	snprintf(out->temporary + dir_length, base_length + 9, ".%.*s.XXXXXX", (int)base_length,
		 target + dir_length);
	out->fd = mkostemp(out->temporary, O_CLOEXEC);
	if (out->fd < 0) {
		fg_fail(err, FG_EIO, "%s: cannot create a temporary file: %s", path,
			strerror(errno));
		free(out->temporary);
		out->temporary = NULL;
		release(out);
		return NULL;
	}
	remember_temporary(out->temporary);
	/* mkstemp makes the file private; at the commit it gets the mode a
	 * plain create (or the file being replaced) would have, so a web
	 * server can read it; private until then, so that no one reads half a
	 * graph under the temporary name (a directory listing shows it). */
	struct stat st;
	if (stat(target, &st) == 0) {
		out->replaces = true;
		out->uid = st.st_uid;
		out->gid = st.st_gid;
		out->mode = st.st_mode & 01777; /* (never set-ID: an SVG is no program) */
	} else {
		mode_t mask = umask(0);
		umask(mask);
		out->mode = 0666 & ~mask;
	}
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
	if (big == NULL) {
		if (out->error == 0)
			out->error = ENOMEM; /* commit fails: no file with a line missing */
		return FG_ENOMEM;
	}
	va_start(args, format);
	vsnprintf(big, (size_t)n + 1, format, args);
	va_end(args);
	int rc = fg_output_write(out, big, (size_t)n);
	free(big);
	return rc;
}

int fg_output_check(const fg_output *out, fg_error *err)
{
	if (out->error == 0)
		return 0;
	if (out->error == ENOMEM)
		return fg_fail(err, FG_ENOMEM, "out of memory");
	return fg_fail(err, FG_EIO, "%s: write failed: %s", display_name(out),
		       strerror(out->error));
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
		if (out->fd > STDOUT_FILENO && close(out->fd) != 0 && out->error == 0)
			out->error = errno;
		rc = fg_output_check(out, err);
		release(out);
		return rc;
	}
	/* A file being replaced keeps its owner and group too, as with a
	 * shell redirection (root:www-data 0640 replaced by root:root 0640 was
	 * no longer readable by the server); where we may not give the owner
	 * (not root), the group alone, where we may (a group we are in). The
	 * owner first: chown may clear set-ID bits that fchmod sets. */
	if (out->replaces && fchown(out->fd, out->uid, out->gid) != 0)
		(void)!fchown(out->fd, (uid_t)-1, out->gid);
	fchmod(out->fd, out->mode);
	if (out->error == 0 && fsync(out->fd) != 0 && errno != EINVAL)
		out->error = errno;
	if (close(out->fd) != 0 && out->error == 0)
		out->error = errno;
	out->fd = -1;
	if (out->error == 0 && rename(out->temporary, out->path) != 0)
		out->error = errno;
	if (out->error) {
		forget_temporary(out->temporary);
		unlink(out->temporary);
		rc = fg_output_check(out, err);
	}
	release(out);
	return rc;
}

bool fg_output_streams(const fg_output *out)
{
	return out->temporary == NULL && !out->in_memory;
}

void fg_output_abort(fg_output *out)
{
	if (out == NULL)
		return;
	if (out->temporary != NULL && !out->in_memory) {
		forget_temporary(out->temporary);
		unlink(out->temporary);
	}
	if (!out->in_memory && out->fd > STDOUT_FILENO)
		close(out->fd);
	release(out);
}
