/*
 * test_output.c - fg_output's temporary file and the programs' signal
 * handling (issue 13 item 11): SIGTERM or SIGINT while an -o FILE is being
 * written removes the temporary file and the process still dies of the
 * signal. cli.c is compiled in, as the programs use it.
 */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "folded.h"
#include "check.h"
#include "../../src/prog/cli.c"

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

/* A new directory (dir: its template, filled in) and path, a file `name`
 * in it; false, failing a check, when none could be made. */
static bool scratch(char *dir, char *path, size_t size, const char *name)
{
	if (mkdtemp(dir) == NULL) {
		CHECK(0, "mkdtemp");
		return false;
	}
	snprintf(path, size, "%s/%s", dir, name);
	return true;
}

static void interrupted(int sig, const char *name)
{
	char dir[] = "/tmp/fg-output-test.XXXXXX", path[64];
	if (!scratch(dir, path, sizeof(path), "graph.svg"))
		return;
	pid_t child = fork();
	if (child == 0) {
		signal(sig, SIG_DFL); /* the harness may run us with SIGINT ignored */
		struct rlimit no_core = {0, 0}; /* (SIGQUIT, SIGXCPU: no core file) */
		setrlimit(RLIMIT_CORE, &no_core);
		cli_start();
		fg_output *out = fg_output_open(path, NULL);
		if (out == NULL)
			_exit(3);
		fg_output_puts(out, "half a graph");
		raise(sig);
		_exit(4);
	}
	int status = 0;
	waitpid(child, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sig, "%s: the process dies of the signal",
	      name);
	CHECK(entries(dir) == 0, "%s during -o leaves no temporary file", name);
	char command[128];
	snprintf(command, sizeof(command), "rm -rf %s", dir);
	if (system(command) != 0)
		CHECK(0, "rm -rf");
}

/* The mode of the one file in dir, or 0. */
static mode_t only_mode(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	mode_t mode = 0;
	while (d != NULL && (e = readdir(d)) != NULL) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' && e->d_name[1] != '\0' && e->d_name[1] != '.' &&
		    stat(path, &st) == 0)
			mode = st.st_mode & 07777;
	}
	if (d != NULL)
		closedir(d);
	return mode;
}

/* While it is written, the temporary file is private: a web server's
 * directory listing would show half a graph under its name. It gets the
 * replaced file's mode at the commit. */
static void private_until_commit(void)
{
	char dir[] = "/tmp/fg-output-test.XXXXXX", path[64];
	if (!scratch(dir, path, sizeof(path), "graph.svg"))
		return;
	FILE *f = fopen(path, "w");
	if (f != NULL)
		fclose(f);
	chmod(path, 0644);
	fg_output *out = fg_output_open(path, NULL);
	fg_output_puts(out, "half a graph");
	CHECK(only_mode(dir) == 0600, "the temporary file is private while written (mode %o)",
	      (unsigned)only_mode(dir));
	CHECK(fg_output_commit(out, NULL) == 0, "commit");
	struct stat st;
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644,
	      "the committed file has the replaced file's mode");
	unlink(path);
	rmdir(dir);
}

static volatile sig_atomic_t ticks;
static void tick(int sig) { (void)sig; ticks++; }

/* A handler installed before main (a profiler's SIGPROF: gperftools'
 * CPUPROFILE, gprof) is kept: it was replaced, and the program died of the
 * profiler's first tick (status 155). */
static void handler_kept(int sig, const char *name)
{
	pid_t child = fork();
	if (child == 0) {
		signal(sig, tick);
		cli_start();
		raise(sig);
		_exit(ticks == 1 ? 0 : 5);
	}
	int status = 0;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%s: a handler installed before cli_start is kept (status %d)", name, status);
}

int main(void)
{
	private_until_commit();
	interrupted(SIGTERM, "SIGTERM");
	interrupted(SIGINT, "SIGINT");
	interrupted(SIGHUP, "SIGHUP");
	/* A warning to a stderr pipe closed early ("fg-render -o out.svg in
	 * 2>&1 | head -n1"), a CPU limit in a cron job (ulimit -t), Ctrl-\,
	 * an alarm: the process dies of these too, and left the temporary
	 * file in the web directory. */
	interrupted(SIGPIPE, "SIGPIPE");
	interrupted(SIGXCPU, "SIGXCPU");
	interrupted(SIGQUIT, "SIGQUIT");
	interrupted(SIGALRM, "SIGALRM");
	interrupted(SIGUSR1, "SIGUSR1");
	handler_kept(SIGPROF, "SIGPROF");
	handler_kept(SIGALRM, "SIGALRM");
	/* Committed and aborted outputs are forgotten: nothing to remove. */
	char dir[] = "/tmp/fg-output-test.XXXXXX", path[64];
	if (scratch(dir, path, sizeof(path), "kept")) {
		fg_output *out = fg_output_open(path, NULL);
		fg_output_puts(out, "x");
		CHECK(fg_output_commit(out, NULL) == 0, "commit");
		fg_output_remove_temporaries();
		CHECK(entries(dir) == 1, "a committed file is not a temporary file");
		unlink(path);
		rmdir(dir);
	}
	return check_exit();
}
