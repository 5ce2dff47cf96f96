/*
 * cli.c - option parsing and messages shared by the fg programs.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"

/* A signal that ends the process during -o (SIGINT, SIGTERM, SIGHUP, but
 * also SIGPIPE from a closed stderr, SIGXCPU from ulimit -t, SIGALRM,
 * SIGQUIT...): remove the temporary file, then die of the signal as before
 * (the exit status still says which one). */
static void remove_temporaries_and_die(int sig)
{
	fg_output_remove_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* sig, from now on, removes the temporary files before it ends the process. */
static void clean_up_on(int sig)
{
	struct sigaction action;
	memset(&action, 0, sizeof(action));
	action.sa_handler = remove_temporaries_and_die;
	sigemptyset(&action.sa_mask);
	sigaction(sig, &action, NULL);
}

void cli_start(void)
{
	/* A standard descriptor closed by the caller ("<&-") would be the
	 * next file opened: "-" would then read the first input again, and
	 * stdout would write into a file opened for reading. Each is held by
	 * /dev/null opened the other way, so it fails as closed (EBADF). */
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int held = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
			if (held >= 0 && held != fd) {
				dup2(held, fd);
				close(held);
			}
		}
	/* SIGPIPE ends the process even where the caller ignored it; a
	 * warning to a stderr pipe closed early ("2>&1 | head") raises it
	 * too, while an -o temporary file may exist. */
	clean_up_on(SIGPIPE);
	/* Past the file size limit (ulimit -f), a write fails (EFBIG) and is
	 * reported like any other, the temporary file removed, instead of the
	 * signal killing the program and leaving it behind. */
	signal(SIGXFSZ, SIG_IGN);
	/* Every signal whose default action ends the process and that a
	 * user, a shell or a limit sends (as sort(1) handles them). */
	static const int fatal[] = {SIGINT,  SIGTERM,   SIGHUP,  SIGQUIT, SIGALRM,
				    SIGXCPU, SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2};
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		/* An ignored signal (nohup, a background job) stays ignored,
		 * and one already handled keeps its handler: a profiler loaded
		 * before main (gperftools' CPUPROFILE, gprof) ticks on SIGPROF,
		 * which would otherwise end the program at its first tick. */
		struct sigaction old;
		if (sigaction(fatal[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			clean_up_on(fatal[i]);
	}
}

bool cli_is_real(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	size_t digits = strspn(s, "0123456789");
	s += digits;
	if (*s == '.') {
		size_t decimals = strspn(s + 1, "0123456789");
		digits += decimals;
		s += 1 + decimals;
	}
	if (digits == 0)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		size_t exponent = strspn(s, "0123456789");
		if (exponent == 0)
			return false;
		s += exponent;
	}
	return *s == '\0';
}

/* The length of the valid UTF-8 sequence of two bytes or more at p, else
 * 0 (a byte of no such sequence: a raw C1 byte 0x80-0x9f among them). */
static size_t utf8_sequence(const unsigned char *p)
{
	size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* (the terminating NUL stops here too) */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0; /* (overlong, a surrogate, past U+10FFFF) */
	return n;
}

/*
 * Text from the command line or the file system (a file name, an option's
 * value) to standard error, its control characters (C0, DEL, C1) each
 * shown as '?', as ls shows them: a name made of terminal escapes must not
 * drive the terminal or the log that reads the message. A byte of no
 * valid UTF-8 sequence is one '?' too, as ls shows it in a UTF-8 locale: a
 * raw C1 byte (0x9b is CSI to a terminal not in UTF-8 mode, such as the
 * Linux console) is one; and so is each bidi control (U+202A-U+202E,
 * U+2066-U+2069), as the writer replaces them in names: they would
 * reorder the rest of the line.
 */
static void clean(char *s)
{
	char *out = s; /* (never ahead of p: a '?' takes one byte or more) */
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x80) {
			*out++ = (*p < 0x20 && *p != '\t') || *p == 0x7f ? '?' : (char)*p;
			continue;
		}
		size_t n = utf8_sequence(p);
		bool control = n == 0 || (p[0] == 0xc2 && p[1] <= 0x9f) ||
			       (p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
			       (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9);
		if (control) {
			*out++ = '?';
		} else {
			memmove(out, p, n);
			out += n;
		}
		if (n > 0)
			p += n - 1;
	}
	*out = '\0';
}

/* A copy of s, cleaned (clean); NULL when out of memory. */
static char *cleaned(const char *s)
{
	char *copy = strdup(s);
	if (copy != NULL)
		clean(copy);
	return copy;
}

/* Each message goes out in one write (stderr is unbuffered, and a line
 * written a piece at a time mixes with those of other programs writing
 * to the same place), from a cleaned copy; as it is when there is no
 * memory for one. */
void cli_error(const char *program, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	int length = vsnprintf(NULL, 0, format, args);
	va_end(args);
	char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
	va_start(args, format);
	if (text != NULL) {
		vsnprintf(text, (size_t)length + 1, format, args);
		clean(text);
		fprintf(stderr, "%s: %s\n", program, text);
	} else {
		fprintf(stderr, "%s: ", program);
		vfprintf(stderr, format, args);
		fputc('\n', stderr);
	}
	va_end(args);
	free(text);
}

static void print_warning(void *context, const char *file, uint64_t line, const char *message)
{
	const char *program = context;
	char *f = file != NULL ? cleaned(file) : NULL, *m = cleaned(message);
	if (m != NULL && (f != NULL || file == NULL)) {
		file = f;
		message = m;
	}
	if (file != NULL && line > 0)
		fprintf(stderr, "%s: %s:%llu: %s\n", program, file, (unsigned long long)line, message);
	else if (file != NULL)
		fprintf(stderr, "%s: %s: %s\n", program, file, message);
	else
		fprintf(stderr, "%s: %s\n", program, message);
	free(f);
	free(m);
}

fg_warner cli_warner(const char *program)
{
	fg_warner w = {print_warning, (void *)program};
	return w;
}

static void usage_error(const cli *c, const char *format, const char *what)
{
	cli_error(c->program, format, what);
	fprintf(stderr, "Try '%s --help' for more information.\n", c->program);
	exit(CLI_EXIT_USAGE);
}

/* "option '-he' is ambiguous; possibilities: '--height' '--help'", spelt
 * as typed (one dash or two), with every option the prefix could name
 * (--help and --version among them), as GNU getopt lists them. */
static void ambiguous(const cli *c, const char *arg, const char *name, size_t length)
{
	char typed[256];
	snprintf(typed, sizeof(typed), "%.*s", (int)(length + (size_t)(name - arg)), arg);
	clean(typed);
	fprintf(stderr, "%s: option '%s' is ambiguous; possibilities:", c->program, typed);
	for (const cli_option *o = c->options; o->name != NULL; o++)
		if (strncasecmp(o->name, name, length) == 0)
			fprintf(stderr, " '--%s'", o->name);
	static const char *const always[] = {"help", "version"};
	for (size_t i = 0; i < 2; i++)
		if (length <= strlen(always[i]) && strncasecmp(always[i], name, length) == 0)
			fprintf(stderr, " '--%s'", always[i]);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", c->program);
	exit(CLI_EXIT_USAGE);
}

/* Prints text (--help, --version) and exits: 0, or 2 when it could not be
 * written (a full disk, a closed pipe), as any other output. */
static void print_and_exit(const cli *c, const char *text, const char *more)
{
	fputs(text, stdout);
	if (more != NULL)
		printf(" %s\n", more);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error(c->program, "standard output: write failed: %s", strerror(errno));
		exit(CLI_EXIT_FAILURE_IO);
	}
	exit(CLI_EXIT_OK);
}

/* Whether o is one of fg's own options, which the original has not. */
static bool is_added(const cli *c, const cli_option *o)
{
	for (const char *const *a = c->added; a != NULL && *a != NULL; a++)
		if (strcmp(*a, o->name) == 0)
			return true;
	return false;
}

/* Finds a long option by exact name or unique prefix, case-insensitively
 * (name: arg after its dashes). */
static const cli_option *find_long(const cli *c, const char *arg, const char *name, size_t length)
{
	const cli_option *found = NULL, *original = NULL;
	int matches = 0, originals = 0;
	for (const cli_option *o = c->options; o->name != NULL; o++) {
		if (strlen(o->name) == length && strncasecmp(o->name, name, length) == 0)
			return o;
		if (length > 0 && strncasecmp(o->name, name, length) == 0) {
			found = o;
			matches++;
			if (!is_added(c, o)) {
				original = o;
				originals++;
			}
		}
	}
	if (matches > 1 && originals == 1)
		return original;
	if (matches > 1)
		ambiguous(c, arg, name, length);
	return matches == 1 ? found : NULL;
}

static const cli_option *find_short(const cli *c, char name)
{
	for (const cli_option *o = c->options; o->name != NULL; o++)
		if (o->short_name != 0 && o->short_name == name)
			return o;
	return NULL;
}

static bool takes_value(const cli_option *o)
{
	return o->kind != CLI_FLAG && o->kind != CLI_CALL_FLAG;
}

static void apply(const cli *c, const cli_option *o, const char *value)
{
	char *end;
	switch (o->kind) {
	case CLI_FLAG:
		*(bool *)o->target = true;
		break;
	case CLI_STRING:
		if (*value == '\0' && strcmp(o->name, "output") == 0)
			usage_error(c, "%s", "an empty file name for --output");
		*(const char **)o->target = value;
		break;
	case CLI_INT: {
		/* [-+]?[0-9]+, as Getopt::Long's integers: no space before */
		const char *digits = value + (*value == '-' || *value == '+');
		errno = 0;
		long v = strtol(value, &end, 10);
		if (!isdigit((unsigned char)*digits) || *end != '\0' ||
		    (errno != 0 && errno != ERANGE))
			usage_error(c, "invalid integer '%s'", value);
		if (errno == ERANGE || v < -2147483647 || v > 2147483647)
			usage_error(c, "integer '%s' out of range", value);
		*(int *)o->target = (int)v;
		break;
	}
	case CLI_DOUBLE: {
		/* (Out of double's range, 1e-400 or 1e400, is a number: 0 or
		 * infinity, which the option's own range then refuses.) */
		errno = 0;
		double v = strtod(value, &end);
		if (!cli_is_real(value) || *end != '\0' || (errno != 0 && errno != ERANGE))
			usage_error(c, "invalid number '%s'", value);
		*(double *)o->target = v;
		break;
	}
	case CLI_CALL:
	case CLI_CALL_FLAG:
		if (((cli_callback *)o->target)(value, c->context) != 0)
			exit(CLI_EXIT_USAGE);
		break;
	}
}

/* Whether every letter of name is a one-letter flag (no value). */
static bool bundled_flags(const cli *c, const char *name)
{
	for (const char *f = name; *f != '\0'; f++) {
		const cli_option *o = find_short(c, *f);
		if (o == NULL || takes_value(o))
			return false;
	}
	return name[0] != '\0' && name[1] != '\0';
}

int cli_parse(const cli *c, int argc, char **argv)
{
	char **operands = malloc(sizeof(char *) * (size_t)(argc + 1));
	if (operands == NULL) {
		cli_error(c->program, "out of memory");
		exit(CLI_EXIT_FAILURE_IO);
	}
	int count = 0;
	int i = 1;
	for (; i < argc; i++) {
		char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0') {
			operands[count++] = arg;
			continue;
		}
		const cli_option *o = NULL;
		const char *value = NULL;
		bool is_long = arg[1] == '-';
		const char *name = arg + (is_long ? 2 : 1);
		if (!is_long && strlen(name) == 1) {
			o = find_short(c, name[0]);
		}
		if (o == NULL) {
			const char *eq = strchr(name, '=');
			size_t length = eq ? (size_t)(eq - name) : strlen(name);
			bool help = length > 0 && length <= 4 && strncasecmp(name, "help", length) == 0;
			bool version = length > 0 && length <= 7 &&
				       strncasecmp(name, "version", length) == 0;
			/* (spelt whole, they are no other option's prefix) */
			bool whole = (help && length == 4) || (version && length == 7);
			/* -j=4: the short option, as -j 4 and -j4 */
			if (!whole && !is_long && length == 1 && eq != NULL)
				o = find_short(c, name[0]);
			if (!whole && o == NULL)
				o = find_long(c, arg, name, length);
			/* --help and --version count among the options a prefix may
			 * name, as in Getopt::Long: --he is ambiguous in fg-render
			 * (--height, --help), --hel is --help, and so is -hel. */
			bool exact = o != NULL && strlen(o->name) == length;
			if (!whole && !exact && (help || version) && (o != NULL || (help && version)))
				ambiguous(c, arg, name, length);
			if (o == NULL && (help || version)) {
				if (eq != NULL)
					usage_error(c, "option '%s' takes no value", arg);
				if (help)
					print_and_exit(c, c->usage, NULL);
				print_and_exit(c, c->program, FG_VERSION);
			}
			if (o == NULL && !is_long && bundled_flags(c, name)) {
				/* -ns: several one-letter flags, as getopts allows. */
				for (const char *f = name; *f != '\0'; f++)
					apply(c, find_short(c, *f), NULL);
				continue;
			}
			if (o != NULL && eq != NULL)
				value = eq + 1;
			if (o == NULL && !is_long) {
				/* -j4, -oFILE: a short option with its value attached. */
				o = find_short(c, name[0]);
				if (o == NULL || !takes_value(o))
					o = NULL;
				else
					value = name + 1;
			}
			if (o == NULL)
				usage_error(c, "unknown option '%s'", arg);
			if (eq != NULL && !takes_value(o))
				usage_error(c, "option '%s' takes no value", arg);
		}
		if (takes_value(o) && value == NULL) {
			if (i + 1 >= argc)
				usage_error(c, "option '%s' needs a value", arg);
			value = argv[++i];
		}
		apply(c, o, value);
	}
	for (; i < argc; i++)
		operands[count++] = argv[i];
	int first = argc - count;
	for (int k = 0; k < count; k++)
		argv[first + k] = operands[k];
	free(operands);
	return first;
}

bool cli_jobs_valid(const char *program, int jobs)
{
	if (jobs >= 0 && jobs <= 1024)
		return true;
	/* (as fg-render: a number this large is a mistake, not a wish) */
	cli_error(program, "-j must be between 0 and 1024");
	return false;
}

int cli_collapse(const char *program, cli_collapse_factory *make_collapse, const void *options,
		 int jobs, const char *output, int argc, char **argv, int first)
{
	return cli_collapse_hinted(program, make_collapse, options, jobs, output, argc, argv, first, NULL);
}

int cli_collapse_hinted(const char *program, cli_collapse_factory *make_collapse,
			const void *options, int jobs, const char *output, int argc, char **argv,
			int first, const char *empty_hint)
{
	if (!cli_jobs_valid(program, jobs))
		return CLI_EXIT_USAGE;
	fg_warner warner = cli_warner(program);
	fg_error err = {0};
	fg_collapse *c = make_collapse(options, (unsigned)jobs, &warner, &err);
	int rc = c != NULL ? fg_collapse_run(c, (const char *const *)argv + first,
					     (size_t)(argc - first), output, &err)
			   : FG_ENOMEM;
	fg_collapse_free(c);
	if (rc == 0)
		return CLI_EXIT_OK;
	if (rc == FG_EEMPTY && empty_hint != NULL)
		cli_error(program, "%s (%s)", err.message, empty_hint);
	else
		cli_error(program, "%s", err.message[0] ? err.message : "out of memory");
	return CLI_EXIT_FAILURE_IO;
}

static fg_collapse *make_trace_collapse(const void *options, unsigned threads,
					const fg_warner *warner, fg_error *err)
{
	return fg_trace_collapse_new(options, threads, warner, err);
}

int cli_trace_main(const char *program, const char *usage, fg_trace_format format, int argc,
		   char **argv)
{
	fg_trace_options options = {.format = format};
	const char *output = NULL;
	int jobs = 0;
	const cli_option table[] = {
		{"jobs", 'j', CLI_INT, &jobs},
		{"output", 'o', CLI_STRING, &output},
		/* DTrace only: for SystemTap this entry ends the table. */
		{format == FG_TRACE_DTRACE ? "includeoffset" : NULL, 0, CLI_FLAG,
		 &options.include_offset},
		{NULL, 0, CLI_FLAG, NULL},
	};
	const cli c = {.program = program, .usage = usage, .options = table};
	cli_start();
	int first = cli_parse(&c, argc, argv);
	return cli_collapse(program, make_trace_collapse, &options, jobs, output, argc, argv, first);
}
