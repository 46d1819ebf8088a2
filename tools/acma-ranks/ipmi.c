// SPDX-License-Identifier: GPL-2.0
/*
 * ipmi.c - running the real ipmitool against the BMC, or replaying answers
 * it gave once
 *
 * ipmitool runs without a shell, with a deadline, its output captured. The
 * password goes through the environment (-E) so that it does not show in
 * the process list a second time. A recording (ipmitool.rec) is a list of
 * entries, each the exact bytes ipmitool printed:
 *
 *	$ ARGS			the arguments after the connection options
 *	exit N | signal N | timeout	how it ended, then " at T": the Unix time
 *				of the end, which a replay gives as the answer's
 *	stdout LEN
 *	LEN bytes, then a newline
 *	stderr LEN
 *	LEN bytes, then a newline
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ipmi.h"

#define REC_FILE	"ipmitool.rec"

extern char **environ;

/* How an ipmitool run ended. */
struct run_end {
	enum {
		RUN_EXIT,	/* code is the exit status */
		RUN_SIGNAL,	/* code is the signal */
		RUN_TIMEOUT,	/* killed at the deadline */
		RUN_EXEC,	/* could not be started; code is the errno */
	} how;
	int code;
};

/* Grows a NUL-terminated buffer; false when out of memory. */
static bool buf_append(char **buf, size_t *len, const char *data, size_t n)
{
	char *p = realloc(*buf, *len + n + 1);

	if (!p)
		return false;
	memcpy(p + *len, data, n);
	*len += n;
	p[*len] = '\0';
	*buf = p;
	return true;
}

static char *join_args(const char *const args[])
{
	char *s = NULL;
	size_t len = 0;
	int i;

	for (i = 0; args[i]; i++) {
		if ((i && !buf_append(&s, &len, " ", 1)) ||
		    !buf_append(&s, &len, args[i], strlen(args[i]))) {
			free(s);
			return NULL;
		}
	}
	return s ? s : strdup("");
}

/*
 * The child's environment: ours, with the password for -E and TZ=UTC, so
 * that the SEL times ipmitool prints are in UTC whatever the host's zone.
 */
static char **child_env(const char *password, char **pw_var)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof(*env));
	*pw_var = malloc(strlen("IPMI_PASSWORD=") + strlen(password) + 1);
	if (!env || !*pw_var) {
		free(env);
		free(*pw_var);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "TZ=", 3) &&
		    strncmp(environ[i], "IPMI_PASSWORD=", 14))
			env[j++] = environ[i];
	sprintf(*pw_var, "IPMI_PASSWORD=%s", password);
	env[j++] = *pw_var;
	env[j++] = "TZ=UTC";
	env[j] = NULL;
	return env;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads both pipes until they close or the deadline passes. */
static bool drain(int out_fd, int err_fd, double deadline, struct ipmi_answer *ans)
{
	struct pollfd pfd[2] = {
		{ .fd = out_fd, .events = POLLIN },
		{ .fd = err_fd, .events = POLLIN },
	};
	char chunk[4096];
	int open_fds = 2, i;

	while (open_fds) {
		double left = deadline - now_s();
		ssize_t n;

		if (left <= 0)
			return false;
		if (poll(pfd, 2, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		for (i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			n = read(pfd[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				pfd[i].fd = -1;
				open_fds--;
				continue;
			}
			if (!(i ? buf_append(&ans->err, &ans->err_len, chunk, n) :
				  buf_append(&ans->out, &ans->out_len, chunk, n)))
				return false;
		}
	}
	return true;
}

/* Runs ipmitool with the connection options, then ARGS. */
static struct run_end run_ipmitool(const struct ipmi_conn *conn,
				   const char *const args[],
				   struct ipmi_answer *ans)
{
	/*
	 * -L USER: reading is all this tool does, and any account may open a
	 * user-level session. -N 1 -R 1: two tries of one second per message,
	 * so that a BMC that does not answer is reported within seconds
	 * instead of ipmitool's default of about 20.
	 */
	const char *fixed[] = {
		conn->ipmitool, "-I", "lanplus", "-C", conn->cipher, "-H", conn->host,
		"-p", conn->port, "-U", conn->user, "-E", "-L", "USER",
		"-N", "1", "-R", "1",
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), nargs = 0, i;
	struct run_end end = { RUN_EXEC, ENOMEM };
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, ex[2] = { -1, -1 };
	char **env = NULL, *pw_var = NULL;
	const char **argv = NULL;
	int status, exec_errno;
	pid_t pid;

	while (args[nargs])
		nargs++;
	argv = calloc(nfixed + nargs + 1, sizeof(*argv));
	env = child_env(conn->password, &pw_var);
	if (!argv || !env)
		goto out;
	memcpy(argv, fixed, sizeof(fixed));
	for (i = 0; i < nargs; i++)
		argv[nfixed + i] = args[i];

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    pipe2(ex, O_CLOEXEC)) {
		end.code = errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		end.code = errno;
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* ipmitool must never wait for a password on a terminal. */
		if (null < 0 || dup2(null, 0) < 0 || dup2(out[1], 1) < 0 ||
		    dup2(err[1], 2) < 0)
			exec_errno = errno;
		else {
			execvpe(argv[0], (char *const *)argv, env);
			exec_errno = errno;
		}
		/* A successful exec closes this pipe: the parent reads nothing. */
		while (write(ex[1], &exec_errno, sizeof(exec_errno)) < 0 &&
		       errno == EINTR)
			;
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	out[1] = err[1] = ex[1] = -1;
	if (read(ex[0], &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno)) {
		waitpid(pid, &status, 0);
		end.code = exec_errno;
		goto out;
	}
	if (!drain(out[0], err[0], now_s() + conn->deadline_s, ans)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		end.how = RUN_TIMEOUT;
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status)) {
		end.how = RUN_EXIT;
		end.code = WEXITSTATUS(status);
	} else {
		end.how = RUN_SIGNAL;
		end.code = WTERMSIG(status);
	}
out:
	for (i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
		if (ex[i] >= 0)
			close(ex[i]);
	}
	free(argv);
	free(env);
	free(pw_var);
	return end;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char chunk[4096], *buf = NULL;
	size_t n;

	*len = 0;
	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (!buf_append(&buf, len, chunk, n)) {
			free(buf);
			buf = NULL;
			break;
		}
	}
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Takes one line off *p; NULL at the end of the text. */
static char *take_line(char **p, char *end)
{
	char *line = *p, *nl;

	if (line >= end)
		return NULL;
	nl = memchr(line, '\n', end - line);
	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return line;
}

/* Takes "NAME LEN\n", LEN bytes and a newline off *p into a new buffer. */
static bool take_blob(char **p, char *end, const char *name, char **buf,
		      size_t *len)
{
	char *line = take_line(p, end), *num;
	size_t n;

	if (!line || strncmp(line, name, strlen(name)) ||
	    line[strlen(name)] != ' ')
		return false;
	num = line + strlen(name) + 1;
	n = strtoul(num, NULL, 10);
	if ((size_t)(end - *p) < n + 1 || (*p)[n] != '\n')
		return false;
	*buf = NULL;
	*len = 0;
	if (!buf_append(buf, len, *p, n))
		return false;
	*p += n + 1;
	return true;
}

/* Finds KEY's entry in the recording; sets why when there is none. */
static bool replay(const char *dir, const char *key, struct ipmi_answer *ans,
		   struct run_end *end)
{
	char *path, *text, *p, *stop, *line, *at;
	bool found = false;
	size_t len;

	if (asprintf(&path, "%s/%s", dir, REC_FILE) < 0)
		return false;
	text = read_file(path, &len);
	if (!text) {
		snprintf(ans->why, sizeof(ans->why), "cannot read %s: %s", path,
			 strerror(errno));
		free(path);
		return false;
	}
	p = text;
	stop = text + len;
	while (!found && (line = take_line(&p, stop))) {
		bool match = line[0] == '$' && line[1] == ' ' &&
			     !strcmp(line + 2, key);

		line = take_line(&p, stop);
		if (!line)
			break;
		if (sscanf(line, "exit %d", &end->code) == 1)
			end->how = RUN_EXIT;
		else if (sscanf(line, "signal %d", &end->code) == 1)
			end->how = RUN_SIGNAL;
		else
			end->how = RUN_TIMEOUT;
		at = strstr(line, " at ");
		ans->when = at ? (time_t)strtoll(at + 4, NULL, 10) : 0;
		if (!take_blob(&p, stop, "stdout", &ans->out, &ans->out_len))
			break;
		if (!take_blob(&p, stop, "stderr", &ans->err, &ans->err_len))
			break;
		if (match)
			found = true;
		else
			ipmi_answer_free(ans);
	}
	if (!found) {
		ipmi_answer_free(ans);
		snprintf(ans->why, sizeof(ans->why),
			 "no recorded answer to 'ipmitool %s' in %s", key, path);
	}
	free(text);
	free(path);
	return found;
}

static void record(const char *dir, const char *key,
		   const struct ipmi_answer *ans, struct run_end end)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, REC_FILE) < 0)
		return;
	f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "acma-ranks: cannot record into %s: %s\n", path,
			strerror(errno));
		free(path);
		return;
	}
	fprintf(f, "$ %s\n", key);
	if (end.how == RUN_EXIT)
		fprintf(f, "exit %d", end.code);
	else if (end.how == RUN_SIGNAL)
		fprintf(f, "signal %d", end.code);
	else
		fprintf(f, "timeout");
	fprintf(f, " at %lld\n", (long long)ans->when);
	fprintf(f, "stdout %zu\n", ans->out_len);
	fwrite(ans->out ? ans->out : "", 1, ans->out_len, f);
	fprintf(f, "\nstderr %zu\n", ans->err_len);
	fwrite(ans->err ? ans->err : "", 1, ans->err_len, f);
	fprintf(f, "\n");
	fclose(f);
	free(path);
}

/*
 * What ipmitool 1.8.19 prints when it fails, first match wins. Some lines
 * only come with -v: without it, a BMC that does not answer and a wrong
 * password both end in "Unable to establish IPMI v2 / RMCP+ session".
 */
static const struct {
	const char *text;
	enum ipmi_fault fault;
	const char *why;	/* NULL: ipmitool's own line */
} ipmitool_says[] = {
	{ "RAKP 2 HMAC is invalid", IPMI_BAD_LOGIN, "wrong password" },
	{ "unauthorized name", IPMI_BAD_LOGIN, "unknown user name" },
	{ "unauthorized role", IPMI_NO_PRIVILEGE, NULL },
	{ "RAKP 2 message indicates an error", IPMI_BAD_LOGIN, NULL },
	{ "rsp=0xd4)", IPMI_NO_PRIVILEGE, "insufficient privilege (0xd4)" },
	{ "Get Auth Capabilities error", IPMI_UNREACHABLE, "no answer over IPMI" },
	{ "Address lookup for", IPMI_UNREACHABLE, NULL },
	{ "rsp=0x", IPMI_COMPLETION, NULL },
};

/* Copies the line of TEXT that holds AT, or TEXT's last line if AT is NULL. */
static void copy_line(char *dst, size_t size, const char *text, const char *at)
{
	const char *start, *end;

	if (!at) {
		end = text + strlen(text);
		while (end > text && end[-1] == '\n')
			end--;
		at = end > text ? end - 1 : text;
	}
	start = at;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchrnul(at, '\n');
	/* ipmitool -v prefixes some of its lines with "> ". */
	if (end - start > 2 && !strncmp(start, "> ", 2))
		start += 2;
	snprintf(dst, size, "%.*s", (int)(end - start), start);
}

static void classify(struct ipmi_answer *ans, struct run_end end,
		     const struct ipmi_conn *conn)
{
	const char *err = ans->err ? ans->err : "";
	size_t i;

	ans->fault = IPMI_FAILED;
	switch (end.how) {
	case RUN_EXEC:
		snprintf(ans->why, sizeof(ans->why), "cannot run %s: %s",
			 conn->ipmitool, strerror(end.code));
		return;
	case RUN_TIMEOUT:
		snprintf(ans->why, sizeof(ans->why),
			 "ipmitool did not finish within %d s", conn->deadline_s);
		return;
	case RUN_SIGNAL:
		snprintf(ans->why, sizeof(ans->why),
			 "ipmitool was killed by signal %d", end.code);
		return;
	case RUN_EXIT:
		break;
	}
	if (end.code == 0) {
		ans->fault = IPMI_OK;
		return;
	}
	for (i = 0; i < sizeof(ipmitool_says) / sizeof(ipmitool_says[0]); i++) {
		const char *at = strstr(err, ipmitool_says[i].text);

		if (!at)
			continue;
		ans->fault = ipmitool_says[i].fault;
		if (ipmitool_says[i].why)
			snprintf(ans->why, sizeof(ans->why), "%s",
				 ipmitool_says[i].why);
		else
			copy_line(ans->why, sizeof(ans->why), err, at);
		return;
	}
	if (*err)
		copy_line(ans->why, sizeof(ans->why), err, NULL);
	else
		snprintf(ans->why, sizeof(ans->why),
			 "ipmitool exited with status %d", end.code);
}

/**
 * ipmi_run() - run ipmitool once against the BMC, or replay its answer
 * @conn: the BMC and the account; with replay_dir nothing is run
 * @args: what follows the connection options, e.g. {"raw", "0x30", "0x40", NULL}
 * @ans: filled with ipmitool's output and what it means; free it with
 *	ipmi_answer_free() whatever this returns
 *
 * Context: forks and waits for at most conn->deadline_s seconds.
 * Return: 0 if ipmitool succeeded (ans->fault is IPMI_OK), -1 otherwise.
 */
int ipmi_run(const struct ipmi_conn *conn, const char *const args[],
	     struct ipmi_answer *ans)
{
	struct run_end end;
	char *key;

	memset(ans, 0, sizeof(*ans));
	ans->fault = IPMI_FAILED;
	key = join_args(args);
	if (!key) {
		snprintf(ans->why, sizeof(ans->why), "out of memory");
		return -1;
	}
	if (conn->replay_dir) {
		if (!replay(conn->replay_dir, key, ans, &end)) {
			free(key);
			return -1;
		}
	} else {
		end = run_ipmitool(conn, args, ans);
		ans->when = time(NULL);
		if (conn->record_dir && end.how != RUN_EXEC)
			record(conn->record_dir, key, ans, end);
	}
	free(key);
	classify(ans, end, conn);
	return ans->fault == IPMI_OK ? 0 : -1;
}

/**
 * ipmi_answer_free() - free an answer's buffers
 * @ans: filled by ipmi_run(); its why stays readable
 */
void ipmi_answer_free(struct ipmi_answer *ans)
{
	free(ans->out);
	free(ans->err);
	ans->out = ans->err = NULL;
	ans->out_len = ans->err_len = 0;
}
