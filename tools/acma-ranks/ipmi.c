// SPDX-License-Identifier: GPL-2.0
/*
 * ipmi.c - one session of the real ipmitool with the BMC, or a replay of
 * the answers it gave once; in-band (conn->device), the same raw commands go
 * through the kernel's IPMI device instead, one after the other (devipmi.c)
 *
 * One ipmitool run opens one RMCP+ session and takes its commands from its
 * standard input (`exec /dev/stdin`, ipmitool's batch mode; 1.8.19 has no
 * `exec -`). acma-ranks writes a batch of `raw` commands, each followed by
 * `echo acma-ranks-mark-N`, which ipmitool answers itself without the BMC,
 * and reads until the batch's last marker came back; it may then write the
 * next batch, made from the answers. ipmitool's standard output and error
 * both go to one pseudo-terminal: its stdout is line-buffered there (a pipe
 * would hold the answers back until ipmitool exits) and the two come in the
 * order ipmitool printed them, so whatever lies between two markers is the
 * answer to the one command between them, whichever stream it took. No shell
 * is involved; the password goes through the environment (-E).
 *
 * ipmitool 1.8.19 runs the lines of an exec file one after the other, goes on
 * after a failed one, and prints for each `raw` command, with -v:
 *
 *	RAW REQ (channel=0x0 netfn=0x30 lun=0x0 cmd=0x43 data_len=1)
 *	RAW RSP (10 bytes)
 *	 05 01 01 00 00 00 2a 00 00 00
 *
 * or "Unable to send RAW command (... cmd=0x43 rsp=0xc9): Parameter out of
 * range" for a completion code other than 0, and the same line without rsp=
 * when the BMC did not answer (then on to the next line, in the same
 * session). Other lines ("IPMI Request Match NOT FOUND" for a late answer)
 * are noise. -v is there for the session's opening: without it ipmitool ends
 * a silent BMC and a wrong password alike; `set verbose 0`, the first line,
 * keeps the hex dumps of the requests that -v adds out of the answers (the
 * RAW REQ/RSP lines stay: they come with the log level -v set).
 *
 * A recording (ipmitool.rec) holds one session:
 *
 *	# ipmitool ARGS		how it ran, for the reader (the port varies)
 *	open LEN		what ipmitool printed before the first marker:
 *	LEN bytes, newline	its session is open
 *	$ COMMAND		a command, then when its answer came (Unix
 *	answer TIME LEN		time) and what ipmitool printed for it
 *	LEN bytes, newline
 *	end HOW LEN		how ipmitool ended (exit N, signal N, timeout)
 *	LEN bytes, newline	and what it printed after its last marker
 *
 * A session that could not open has no "open" entry, only its "end".
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "devipmi.h"
#include "ipmi.h"

#define REC_FILE	"ipmitool.rec"
/* In-band, how long one command may wait for its answer. */
#define DEVIPMI_TIMEOUT_S	10
#define MARK		"acma-ranks-mark-"

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

struct ipmi_session {
	const struct ipmi_conn *conn;

	/* A live run: ipmitool's pid, its stdin and the terminal it prints on. */
	pid_t pid;
	int in_fd;
	int out_fd;
	char *out;		/* what it printed and was not taken yet */
	size_t out_len;
	size_t seg;		/* the start of the answer being printed */
	size_t scan;		/* the first line not looked at */
	unsigned int marks;	/* markers sent */
	double deadline;
	bool ended;
	struct run_end end;
	struct sigaction old_pipe;
	FILE *rec;

	/* In-band: the kernel's IPMI device, or -1. */
	int dev_fd;

	/* A replay: the recording. */
	char *path;
	char *text;
	size_t text_len;
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Copies the line of TEXT that holds AT, or TEXT's last line if AT is NULL. */
static void copy_line(char *dst, size_t size, const char *text, size_t len,
		      const char *at)
{
	const char *start, *end = text + len;

	if (!at) {
		while (end > text && isspace((unsigned char)end[-1]))
			end--;
		at = end > text ? end - 1 : text;
	}
	start = at;
	while (start > text && start[-1] != '\n')
		start--;
	end = memchr(at, '\n', text + len - at);
	if (!end)
		end = text + len;
	/* ipmitool -v prefixes some of its lines with "> ". */
	if (end - start > 2 && !strncmp(start, "> ", 2))
		start += 2;
	snprintf(dst, size, "%.*s", (int)(end - start), start);
}

/* ---- What ipmitool's words mean ---- */

/*
 * Why a session did not open: what ipmitool 1.8.19 prints, first match wins.
 * Only these come as words alone: a wrong password is ipmitool's own finding
 * (the BMC's RAKP 2 does not check out), an unknown user the RMCP+ status
 * code of RAKP 2, which ipmitool names but does not print as a number. Some
 * come only with -v: without it, a BMC that does not answer and a wrong
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
	{ "Get Auth Capabilities error", IPMI_UNREACHABLE, "no answer over IPMI" },
	{ "Address lookup for", IPMI_UNREACHABLE, NULL },
};

/* Why ipmitool ended without a session, or without answering a command. */
static void run_failed(struct ipmi_answer *ans, struct run_end end,
		       const struct ipmi_conn *conn, const char *text, size_t len,
		       const char *doing)
{
	char line[sizeof(ans->why)];
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
	for (i = 0; i < sizeof(ipmitool_says) / sizeof(ipmitool_says[0]); i++) {
		const char *at = memmem(text, len, ipmitool_says[i].text,
					strlen(ipmitool_says[i].text));

		if (!at)
			continue;
		ans->fault = ipmitool_says[i].fault;
		if (ipmitool_says[i].why)
			snprintf(ans->why, sizeof(ans->why), "%s", ipmitool_says[i].why);
		else
			copy_line(ans->why, sizeof(ans->why), text, len, at);
		return;
	}
	copy_line(line, sizeof(line), text, len, NULL);
	if (*line)
		snprintf(ans->why, sizeof(ans->why), "%s", line);
	else
		snprintf(ans->why, sizeof(ans->why), "ipmitool exited with status %d %s",
			 end.code, doing);
}

/* " 08 02 00 01": the bytes of one line of ipmitool raw's answer. */
static bool hex_line(const char *line, size_t len, struct ipmi_answer *ans)
{
	size_t i;

	if (!len || len % 3)
		return false;
	for (i = 0; i < len; i += 3)
		if (line[i] != ' ' || !isxdigit((unsigned char)line[i + 1]) ||
		    !isxdigit((unsigned char)line[i + 2]))
			return false;
	for (i = 0; i < len; i += 3) {
		if (ans->len == IPMI_RSP_MAX)
			return true;	/* parse_raw() counts them all */
		ans->rsp[ans->len++] = strtoul((char[]){ line[i + 1], line[i + 2], 0 },
					       NULL, 16);
	}
	return true;
}

/*
 * What ipmitool printed for one raw command: its bytes, or why not. The
 * completion code is read from rsp=0x.., a number, not from ipmitool's name
 * for it.
 */
static void parse_raw(const char *text, size_t len, struct ipmi_answer *ans)
{
	const char *line = text, *end = text + len, *failed = NULL, *other = NULL;
	size_t failed_len = 0, other_len = 0;
	int announced = -1, bytes = 0;

	ans->len = 0;
	ans->ccode = 0;
	ans->fault = IPMI_OK;
	ans->why[0] = '\0';
	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = (nl ? nl : end) - line;

		while (n && isspace((unsigned char)line[n - 1]))
			n--;
		if (!n || hex_line(line, n, ans)) {
			bytes += n / 3;
		} else if (!strncmp(line, "Unable to send RAW command", 26)) {
			failed = line;
			failed_len = n;
		} else if (sscanf(line, "RAW RSP (%d bytes)", &announced) != 1) {
			other = line;
			other_len = n;
		}
		line = nl ? nl + 1 : end;
	}
	if (failed) {
		const char *cc = memmem(failed, failed_len, " rsp=0x", 7);
		const char *name = memmem(failed, failed_len, "): ", 3);

		if (!cc) {
			ans->fault = IPMI_UNREACHABLE;
			snprintf(ans->why, sizeof(ans->why), "no answer from the BMC");
			return;
		}
		ans->ccode = strtoul(cc + 7, NULL, 16);
		ans->fault = ans->ccode == 0xd4 ? IPMI_NO_PRIVILEGE : IPMI_COMPLETION;
		if (ans->ccode == 0xd4)
			snprintf(ans->why, sizeof(ans->why), "insufficient privilege (0xd4)");
		else if (name)
			snprintf(ans->why, sizeof(ans->why), "completion code 0x%02x (%.*s)",
				 ans->ccode, (int)(failed + failed_len - name - 3), name + 3);
		else
			snprintf(ans->why, sizeof(ans->why), "completion code 0x%02x",
				 ans->ccode);
		return;
	}
	if (bytes > IPMI_RSP_MAX) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "%d answer bytes, more than %d",
			 bytes, IPMI_RSP_MAX);
	} else if (announced >= 0 && announced != bytes) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why),
			 "%d answer bytes where ipmitool announced %d", bytes, announced);
	} else if (announced < 0 && !bytes) {
		ans->fault = IPMI_FAILED;
		if (other)
			snprintf(ans->why, sizeof(ans->why), "%.*s", (int)other_len, other);
		else
			snprintf(ans->why, sizeof(ans->why), "no answer in ipmitool's output");
	}
}

/* ---- The recording ---- */

static void rec_blob(FILE *f, const char *text, size_t len)
{
	fprintf(f, "%zu\n", len);
	fwrite(text, 1, len, f);
	fputc('\n', f);
	fflush(f);
}

static void rec_end(struct ipmi_session *s, const char *text, size_t len)
{
	if (!s->rec)
		return;
	if (s->end.how == RUN_EXIT)
		fprintf(s->rec, "end exit %d ", s->end.code);
	else if (s->end.how == RUN_SIGNAL)
		fprintf(s->rec, "end signal %d ", s->end.code);
	else
		fprintf(s->rec, "end timeout ");
	rec_blob(s->rec, text, len);
	fclose(s->rec);
	s->rec = NULL;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char chunk[4096], *buf = NULL;
	size_t n;
	int saved;

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
	saved = errno;
	fclose(f);
	errno = saved;
	if (!buf && !*len)
		buf = strdup("");
	return buf;
}

/* One entry of a recording. */
struct rec_item {
	enum { REC_OPEN, REC_ANSWER, REC_END } kind;
	const char *cmd;	/* REC_ANSWER: the command, cmd_len bytes */
	size_t cmd_len;
	const char *line;	/* "open LEN", "answer TIME LEN", "end HOW LEN" */
	const char *blob;	/* what ipmitool printed, len bytes */
	size_t len;
};

/* Takes the next entry off *p; false at the end or at a malformed entry. */
static bool rec_next(const char **p, const char *end, struct rec_item *it)
{
	const char *line, *nl, *num;
	size_t n;

	it->cmd = NULL;
	it->cmd_len = 0;
	for (;;) {
		line = *p;
		nl = line < end ? memchr(line, '\n', end - line) : NULL;
		if (!nl)
			return false;
		*p = nl + 1;
		if (line[0] == '#')
			continue;
		if (line[0] != '$' || line[1] != ' ')
			break;
		/* The command; its answer comes next. */
		it->cmd = line + 2;
		it->cmd_len = nl - line - 2;
	}
	it->line = line;
	if (!strncmp(line, "open ", 5) && !it->cmd)
		it->kind = REC_OPEN;
	else if (!strncmp(line, "answer ", 7) && it->cmd)
		it->kind = REC_ANSWER;
	else if (!strncmp(line, "end ", 4) && !it->cmd)
		it->kind = REC_END;
	else
		return false;
	/* The length is the line's last word. */
	num = nl;
	while (num > line && num[-1] != ' ')
		num--;
	n = strtoul(num, NULL, 10);
	if ((size_t)(end - *p) < n + 1 || (*p)[n] != '\n')
		return false;
	it->blob = *p;
	it->len = n;
	*p += n + 1;
	return true;
}

/* The first entry of KIND (and of CMD, for an answer); false if none. */
static bool rec_find(const struct ipmi_session *s, int kind, const char *cmd,
		     struct rec_item *it)
{
	const char *p = s->text, *end = s->text + s->text_len;

	while (rec_next(&p, end, it))
		if ((int)it->kind == kind &&
		    (!cmd || (it->cmd_len == strlen(cmd) &&
			      !memcmp(it->cmd, cmd, it->cmd_len))))
			return true;
	return false;
}

/* How the recorded run ended, and what it printed last; false if unrecorded. */
static bool rec_run_end(const struct ipmi_session *s, struct run_end *end,
			struct rec_item *it)
{
	if (!rec_find(s, REC_END, NULL, it))
		return false;
	if (sscanf(it->line, "end exit %d", &end->code) == 1)
		end->how = RUN_EXIT;
	else if (sscanf(it->line, "end signal %d", &end->code) == 1)
		end->how = RUN_SIGNAL;
	else
		end->how = RUN_TIMEOUT;
	return true;
}

/* ---- A live run ---- */

/*
 * The child's environment: ours, with the password for -E; no IPMITOOL_PASSWORD,
 * which ipmitool would prefer.
 */
static char **child_env(const char *password, char **pw_var)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	*pw_var = malloc(strlen("IPMI_PASSWORD=") + strlen(password) + 1);
	if (!env || !*pw_var) {
		free(env);
		free(*pw_var);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "IPMI_PASSWORD=", 14) &&
		    strncmp(environ[i], "IPMITOOL_PASSWORD=", 18))
			env[j++] = environ[i];
	sprintf(*pw_var, "IPMI_PASSWORD=%s", password);
	env[j++] = *pw_var;
	env[j] = NULL;
	return env;
}

/* A pseudo-terminal that passes bytes as they are: master and slave. */
static int open_pty(int *master, int *slave)
{
	struct termios t;
	char name[64];

	*master = posix_openpt(O_RDWR | O_NOCTTY);
	*slave = -1;
	if (*master < 0)
		return -1;
	if (fcntl(*master, F_SETFD, FD_CLOEXEC) || grantpt(*master) ||
	    unlockpt(*master) || ptsname_r(*master, name, sizeof(name)))
		goto fail;
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0 || tcgetattr(*slave, &t))
		goto fail;
	cfmakeraw(&t);
	if (tcsetattr(*slave, TCSANOW, &t))
		goto fail;
	return 0;
fail:
	close(*master);
	if (*slave >= 0)
		close(*slave);
	return -1;
}

#define NR_ARGS 21

/*
 * ipmitool's arguments. -L USER: reading is all this tool does, and any
 * account may open a user-level session. -N 1 -R 1: two tries of one second
 * per message, so that a BMC that does not answer is reported within seconds
 * instead of ipmitool's default of about 20.
 */
static void ipmitool_args(const struct ipmi_conn *conn, const char *argv[NR_ARGS + 1])
{
	const char *args[NR_ARGS + 1] = {
		conn->ipmitool, "-I", "lanplus", "-C", conn->cipher, "-H", conn->host,
		"-p", conn->port, "-U", conn->user, "-E", "-L", "USER",
		"-N", "1", "-R", "1", "-v", "exec", "/dev/stdin", NULL,
	};

	memcpy(argv, args, sizeof(args));
}

/* Starts ipmitool; end->how is RUN_EXEC with the errno if it could not. */
static int spawn(struct ipmi_session *s, struct run_end *end)
{
	const struct ipmi_conn *conn = s->conn;
	const char *argv[NR_ARGS + 1];
	int in[2] = { -1, -1 }, ex[2] = { -1, -1 }, master = -1, slave = -1;
	char **env, *pw_var = NULL;
	int exec_errno, ret = -1;
	size_t i;

	ipmitool_args(conn, argv);
	end->how = RUN_EXEC;
	end->code = ENOMEM;
	env = child_env(conn->password, &pw_var);
	if (!env)
		return -1;
	if (pipe2(in, O_CLOEXEC) || pipe2(ex, O_CLOEXEC) || open_pty(&master, &slave)) {
		end->code = errno;
		goto out;
	}
	s->pid = fork();
	if (s->pid < 0) {
		end->code = errno;
		goto out;
	}
	if (s->pid == 0) {
		/* Its own process group, so that a deadline kills a wrapper's children too. */
		setpgid(0, 0);
		if (dup2(in[0], 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
			exec_errno = errno;
		else {
			execvpe(argv[0], (char *const *)argv, env);
			exec_errno = errno;
		}
		/* A successful exec closes this pipe: the parent reads nothing. */
		while (write(ex[1], &exec_errno, sizeof(exec_errno)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	/* Both of us, so that a kill(-pid) right now finds the group. */
	setpgid(s->pid, s->pid);
	close(ex[1]);
	ex[1] = -1;
	if (read(ex[0], &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno)) {
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
		end->code = exec_errno;
		goto out;
	}
	s->in_fd = in[1];
	s->out_fd = master;
	in[1] = master = -1;
	fcntl(s->in_fd, F_SETFL, O_NONBLOCK);
	ret = 0;
out:
	for (i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (ex[i] >= 0)
			close(ex[i]);
	}
	if (master >= 0)
		close(master);
	if (slave >= 0)
		close(slave);
	free(env);
	free(pw_var);
	return ret;
}

/* Waits for ipmitool to end, at most until the deadline; then kills it. */
static void reap(struct ipmi_session *s)
{
	int status;

	if (s->ended)
		return;
	s->ended = true;
	for (;;) {
		pid_t r = waitpid(s->pid, &status, WNOHANG);

		if (r == s->pid)
			break;
		if ((r < 0 && errno != EINTR) || now_s() >= s->deadline) {
			kill(-s->pid, SIGKILL);
			kill(s->pid, SIGKILL);
			while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
				;
			s->end.how = RUN_TIMEOUT;
			s->end.code = 0;
			return;
		}
		if (r == 0)
			usleep(10000);
	}
	if (WIFEXITED(status)) {
		s->end.how = RUN_EXIT;
		s->end.code = WEXITSTATUS(status);
	} else {
		s->end.how = RUN_SIGNAL;
		s->end.code = WTERMSIG(status);
	}
}

/* The marker line "acma-ranks-mark-N " (echo adds a blank)? */
static bool is_mark(const char *line, size_t len, unsigned int n)
{
	char mark[32];
	size_t m = snprintf(mark, sizeof(mark), MARK "%u", n);

	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	return len == m && !memcmp(line, mark, m);
}

/* The answers a batch waits for. */
struct pending {
	size_t n, done;
	const char *const *cmds;	/* NULL: the session's opening */
	struct ipmi_answer *ans;
	unsigned int first_mark;
	bool to_end;			/* wait for ipmitool's end instead */
};

/* Takes the answers whose markers came. */
static void take_answers(struct ipmi_session *s, struct pending *p)
{
	char *nl;

	while (p->done < p->n && s->out &&
	       (nl = memchr(s->out + s->scan, '\n', s->out_len - s->scan))) {
		char *line = s->out + s->scan, *seg = s->out + s->seg;
		size_t seg_len = line - seg;

		s->scan = nl + 1 - s->out;
		if (!is_mark(line, nl - line, p->first_mark + p->done))
			continue;
		if (!p->cmds) {
			if (s->rec) {
				fprintf(s->rec, "open ");
				rec_blob(s->rec, seg, seg_len);
			}
		} else {
			struct ipmi_answer *ans = &p->ans[p->done];

			parse_raw(seg, seg_len, ans);
			ans->when = time(NULL);
			if (s->rec) {
				fprintf(s->rec, "$ %s\nanswer %lld ", p->cmds[p->done],
					(long long)ans->when);
				rec_blob(s->rec, seg, seg_len);
			}
		}
		p->done++;
		s->seg = s->scan;
	}
}

/*
 * Writes IN to ipmitool while taking its answers, until P has them all or
 * ipmitool ended (or was killed at the deadline).
 */
static void pump(struct ipmi_session *s, const char *in, size_t in_len,
		 struct pending *p)
{
	size_t written = 0;

	take_answers(s, p);
	while (!s->ended && (p->done < p->n || p->to_end)) {
		struct pollfd pfd[2] = {
			{ .fd = s->out_fd, .events = POLLIN },
			{ .fd = s->in_fd, .events = POLLOUT },
		};
		double left = s->deadline - now_s();
		bool more_in = written < in_len && s->in_fd >= 0;
		char chunk[4096];
		ssize_t n;

		if (left <= 0) {
			reap(s);	/* kills it */
			return;
		}
		if (poll(pfd, more_in ? 2 : 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			reap(s);
			return;
		}
		if (more_in && pfd[1].revents) {
			n = write(s->in_fd, in + written, in_len - written);
			if (n > 0) {
				written += n;
			} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
				/* EPIPE: it no longer reads; what it printed tells why. */
				close(s->in_fd);
				s->in_fd = -1;
			}
		}
		if (!pfd[0].revents)
			continue;
		n = read(s->out_fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			/* EIO: every copy of the terminal's slave is closed. */
			reap(s);
			return;
		}
		if (!buf_append(&s->out, &s->out_len, chunk, n)) {
			reap(s);
			return;
		}
		take_answers(s, p);
	}
}

/* Drops the answers taken from the output buffer. */
static void compact(struct ipmi_session *s)
{
	if (!s->out)
		return;
	memmove(s->out, s->out + s->seg, s->out_len - s->seg + 1);
	s->out_len -= s->seg;
	s->scan -= s->seg;
	s->seg = 0;
}

/* Appends "CMD\necho MARK\n" for each command to *in. */
static bool batch_input(struct ipmi_session *s, size_t n, const char *const cmds[],
			char **in, size_t *len)
{
	char mark[48];
	size_t i;

	for (i = 0; i < n; i++) {
		int m = snprintf(mark, sizeof(mark), "\necho " MARK "%u\n", s->marks++);

		if (!buf_append(in, len, cmds[i], strlen(cmds[i])) ||
		    !buf_append(in, len, mark, m))
			return false;
	}
	return true;
}

static void free_session(struct ipmi_session *s)
{
	if (s->dev_fd >= 0)
		close(s->dev_fd);
	if (s->in_fd >= 0)
		close(s->in_fd);
	if (s->out_fd >= 0)
		close(s->out_fd);
	if (s->rec)
		fclose(s->rec);
	if (s->pid > 0)
		sigaction(SIGPIPE, &s->old_pipe, NULL);
	free(s->out);
	free(s->text);
	free(s->path);
	free(s);
}

static struct ipmi_session *open_live(struct ipmi_session *s, struct ipmi_answer *fail)
{
	static const char opening[] = "set verbose 0\necho " MARK "0\n";
	const struct ipmi_conn *conn = s->conn;
	struct pending p = { .n = 1 };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct run_end end;
	char *path;
	size_t i;

	if (conn->record_dir) {
		if (asprintf(&path, "%s/%s", conn->record_dir, REC_FILE) < 0)
			path = NULL;
		s->rec = path ? fopen(path, "w") : NULL;
		if (!s->rec)
			fprintf(stderr, "acma-ranks: cannot record into %s: %s\n",
				path ? path : conn->record_dir, strerror(errno));
		free(path);
	}
	if (spawn(s, &end)) {
		/* Nothing ran: nothing to record. */
		run_failed(fail, end, conn, "", 0, "");
		free_session(s);
		return NULL;
	}
	/* A write to an ipmitool that stopped reading fails with EPIPE instead. */
	sigaction(SIGPIPE, &ign, &s->old_pipe);
	if (s->rec) {
		const char *argv[NR_ARGS + 1];

		ipmitool_args(conn, argv);
		fprintf(s->rec, "#");
		for (i = 0; argv[i]; i++)
			fprintf(s->rec, " %s", argv[i]);
		fprintf(s->rec, "\n");
	}
	s->marks = 1;
	pump(s, opening, sizeof(opening) - 1, &p);
	if (p.done) {
		compact(s);
		return s;
	}
	/* No session: ipmitool ended, or hangs in the opening. */
	if (s->in_fd >= 0) {
		close(s->in_fd);
		s->in_fd = -1;
	}
	reap(s);
	run_failed(fail, s->end, conn, s->out ? s->out : "", s->out_len,
		   "before a session was open");
	rec_end(s, s->out ? s->out : "", s->out_len);
	free_session(s);
	return NULL;
}

static struct ipmi_session *open_replay(struct ipmi_session *s, struct ipmi_answer *fail)
{
	struct rec_item it;
	struct run_end end;

	if (asprintf(&s->path, "%s/%s", s->conn->replay_dir, REC_FILE) < 0) {
		s->path = NULL;
		snprintf(fail->why, sizeof(fail->why), "out of memory");
		free_session(s);
		return NULL;
	}
	s->text = read_file(s->path, &s->text_len);
	if (!s->text) {
		snprintf(fail->why, sizeof(fail->why), "cannot read %s: %s", s->path,
			 strerror(errno));
		free_session(s);
		return NULL;
	}
	if (rec_find(s, REC_OPEN, NULL, &it))
		return s;
	if (rec_run_end(s, &end, &it))
		run_failed(fail, end, s->conn, it.blob, it.len, "before a session was open");
	else
		snprintf(fail->why, sizeof(fail->why), "no session recorded in %s", s->path);
	free_session(s);
	return NULL;
}

/**
 * ipmi_open() - start ipmitool and wait until its session is open
 * @conn: the BMC and the account; with replay_dir nothing is run
 * @fail: when it returns NULL: why (fail->fault tells an unreachable BMC
 *	from a refused login)
 *
 * Context: forks; waits for at most conn->deadline_s seconds, which is the
 * deadline of the whole session. SIGPIPE is ignored until ipmi_close().
 * Return: the session, or NULL.
 */
struct ipmi_session *ipmi_open(const struct ipmi_conn *conn, struct ipmi_answer *fail)
{
	struct ipmi_session *s = calloc(1, sizeof(*s));

	memset(fail, 0, sizeof(*fail));
	fail->fault = IPMI_FAILED;
	if (!s) {
		snprintf(fail->why, sizeof(fail->why), "out of memory");
		return NULL;
	}
	s->conn = conn;
	s->in_fd = s->out_fd = s->dev_fd = -1;
	s->deadline = now_s() + conn->deadline_s;
	if (conn->device) {
		s->dev_fd = devipmi_open(conn->device, fail);
		if (s->dev_fd < 0) {
			free_session(s);
			return NULL;
		}
		return s;
	}
	return conn->replay_dir ? open_replay(s, fail) : open_live(s, fail);
}

/* The answer of a command that got none: from how ipmitool ended. */
static void unanswered(const struct ipmi_session *s, struct run_end end, bool known,
		       const char *text, size_t len, struct ipmi_answer *ans)
{
	if (!known) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "ipmitool stopped answering");
		return;
	}
	run_failed(ans, end, s->conn, text, len, "before answering");
}

/**
 * ipmi_batch() - send raw commands in the session, wait for their answers
 * @s: from ipmi_open()
 * @n: number of commands
 * @cmds: ipmitool command lines, e.g. "raw 0x30 0x43 5" (no '#': exec would
 *	take the rest of the line for a comment)
 * @ans: the n answers, in order; each is for the command of the same index
 *
 * A command that failed has its fault and why set; the others are still
 * answered. When ipmitool ended (or was killed at the deadline) before the
 * last answer, the commands left get why from how it ended.
 */
void ipmi_batch(struct ipmi_session *s, size_t n, const char *const cmds[],
		struct ipmi_answer ans[])
{
	struct pending p = { .n = n, .cmds = cmds, .ans = ans, .first_mark = s->marks };
	struct rec_item it, last;
	struct run_end end;
	size_t i, len = 0;
	char *in = NULL;
	bool known;

	memset(ans, 0, n * sizeof(*ans));
	if (s->dev_fd >= 0) {
		for (i = 0; i < n; i++) {
			double left = s->deadline - now_s();

			if (left <= 0) {
				ans[i].fault = IPMI_UNREACHABLE;
				snprintf(ans[i].why, sizeof(ans[i].why),
					 "no answer within %d s", s->conn->deadline_s);
				continue;
			}
			devipmi_command(s->dev_fd, cmds[i],
					left > DEVIPMI_TIMEOUT_S ? DEVIPMI_TIMEOUT_S * 1000 :
					(int)(left * 1000), &ans[i]);
		}
		return;
	}
	if (s->text) {
		known = rec_run_end(s, &end, &last);
		for (i = 0; i < n; i++) {
			if (rec_find(s, REC_ANSWER, cmds[i], &it)) {
				parse_raw(it.blob, it.len, &ans[i]);
				ans[i].when = strtoll(it.line + 7, NULL, 10);
			} else if (known && end.how != RUN_EXIT) {
				/* Killed or too slow before this answer, as it was recorded. */
				run_failed(&ans[i], end, s->conn, last.blob, last.len,
					   "before answering");
			} else {
				ans[i].fault = IPMI_FAILED;
				snprintf(ans[i].why, sizeof(ans[i].why),
					 "no recorded answer to 'ipmitool %s' in %s",
					 cmds[i], s->path);
			}
		}
		return;
	}
	if (!batch_input(s, n, cmds, &in, &len)) {
		free(in);
		for (i = 0; i < n; i++) {
			ans[i].fault = IPMI_FAILED;
			snprintf(ans[i].why, sizeof(ans[i].why), "out of memory");
		}
		return;
	}
	if (s->in_fd >= 0)
		pump(s, in, len, &p);
	free(in);
	for (i = p.done; i < n; i++)
		unanswered(s, s->end, s->ended, s->out ? s->out + s->seg : "",
			   s->out_len - s->seg, &ans[i]);
	compact(s);
}

/**
 * ipmi_close() - end the session: ipmitool closes it and exits
 * @s: from ipmi_open(); freed
 */
void ipmi_close(struct ipmi_session *s)
{
	if (!s)
		return;
	if (!s->text && s->dev_fd < 0) {
		struct pending none = { .to_end = true };

		if (s->in_fd >= 0) {
			close(s->in_fd);
			s->in_fd = -1;
		}
		/* Read to the end: ipmitool closes the session and exits at EOF. */
		pump(s, NULL, 0, &none);
		rec_end(s, s->out ? s->out + s->seg : "", s->out_len - s->seg);
	}
	free_session(s);
}
