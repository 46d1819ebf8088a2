// SPDX-License-Identifier: GPL-2.0
/*
 * sysif.c - the system interface (KCS) on a private UNIX socket
 *
 * The system interface has no sessions: whoever is connected to it may
 * send every command, as the host's OS may. ipmi_sim 2.0.33 only knows TCP
 * for its "serial" channel (lan.conf "serial kcs ADDR PORT codec VM"), and
 * a TCP port on 127.0.0.1 is open to every local process. With the loadlib
 * argument kcs=PATH the plugin serves the system interface on the UNIX
 * socket PATH instead, and closes ipmi_sim's TCP listener.
 *
 * This runs in post-init, after the .emu file's mc_enable opened the
 * listener and before ipmi_sim's event loop first runs, so no connection
 * to the TCP port is ever accepted. The listener's descriptor is replaced
 * (dup2) by the read end of a pipe nobody writes to: the TCP socket is
 * closed and leaves ipmi_sim's epoll set, and the descriptor number stays
 * taken, so ipmi_sim's stale registration of it can never fire or be
 * confused with a new descriptor. The plugin then does what ipmi_sim's
 * own accept and read handlers do, through the ipmi_sim API: one
 * connection at a time, bytes to serserv_handle_data(), the codec told of
 * connects and disconnects; answers go out through ipmi_sim's send_out,
 * which writes to ser->con_fd.
 *
 * The socket's folder must be the caller's own and closed to others
 * (0700); the socket itself is made 0600. Anything wrong stops ipmi_sim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <OpenIPMI/ipmi_mc.h>
#include <OpenIPMI/serserv.h>

#include "acma-bmc.h"

#define SYSIF_CHANNEL	15

static struct {
	struct acma_bmc *bmc;
	serserv_data_t *ser;
	ipmi_io_t *listen_io;
	ipmi_io_t *con_io;
	int dummy_writer;	/* keeps the pipe in the listener's place open */
} sysif = { .dummy_writer = -1 };

static void sysif_data_ready(int fd, void *cb_data)
{
	serserv_data_t *ser = sysif.ser;
	unsigned char buf[256];
	ssize_t len;

	(void)cb_data;
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (len <= 0) {
		if (ser->codec->disconnected)
			ser->codec->disconnected(ser);
		sysif.bmc->sys->remove_io_hnd(sysif.con_io);
		sysif.con_io = NULL;
		close(fd);
		ser->con_fd = -1;
		acma_log(sysif.bmc, INFO, "acma: system interface disconnected");
		return;
	}
	serserv_handle_data(ser, buf, len);
}

static void sysif_accept(int fd, void *cb_data)
{
	serserv_data_t *ser = sysif.ser;
	int con;

	(void)cb_data;
	con = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (con < 0)
		return;
	if (ser->con_fd >= 0) {		/* one at a time, as ipmi_sim does */
		close(con);
		return;
	}
	ser->con_fd = con;
	if (sysif.bmc->sys->add_io_hnd(sysif.bmc->sys, con, sysif_data_ready, NULL,
				       &sysif.con_io)) {
		ser->con_fd = -1;
		close(con);
		return;
	}
	acma_log(sysif.bmc, INFO, "acma: system interface connected");
	if (ser->codec->connected)
		ser->codec->connected(ser);
}

/* Close ipmi_sim's TCP listener, keeping its descriptor number taken. */
static int close_tcp_listener(serserv_data_t *ser)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return errno;
	if (dup2(p[0], ser->bind_fd) < 0) {
		int err = errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	close(p[0]);
	sysif.dummy_writer = p[1];
	return 0;
}

/**
 * acma_sysif_unix() - move the system interface to the UNIX socket kcs=PATH
 * @bmc: the plugin; @bmc->kcs_path set, @bmc->mc configured
 *
 * Return: 0 on success, an errno value (logged) otherwise.
 */
int acma_sysif_unix(struct acma_bmc *bmc)
{
	channel_t **chans = bmc->sys->mc_get_channelset(bmc->mc);
	channel_t *chan = chans ? chans[SYSIF_CHANNEL] : NULL;
	const char *path = bmc->kcs_path;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	serserv_data_t *ser;
	mode_t old_mask;
	int fd, err;

	if (!chan || chan->medium_type != IPMI_CHANNEL_MEDIUM_RS232) {
		acma_log(bmc, SETUP_ERROR,
			 "acma: kcs=%s but lan.conf has no 'serial kcs' system interface", path);
		return ENOENT;
	}
	ser = chan->chan_info;
	if (ser->do_connect || ser->bind_fd < 0) {
		acma_log(bmc, SETUP_ERROR,
			 "acma: kcs=%s: the system interface must listen (no 'connect')", path);
		return EINVAL;
	}
	if (strlen(path) >= sizeof(sun.sun_path)) {
		acma_log(bmc, SETUP_ERROR, "acma: kcs=%s: longer than %zu bytes", path,
			 sizeof(sun.sun_path) - 1);
		return ENAMETOOLONG;
	}
	err = acma_private_dir(bmc, path, "system interface socket");
	if (err)
		return err;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	old_mask = umask(077);
	err = bind(fd, (struct sockaddr *)&sun, sizeof(sun)) ? errno : 0;
	umask(old_mask);
	if (!err && listen(fd, 1))
		err = errno;
	if (!err)
		err = close_tcp_listener(ser);
	sysif.bmc = bmc;
	sysif.ser = ser;
	if (!err)
		err = bmc->sys->add_io_hnd(bmc->sys, fd, sysif_accept, NULL,
					   &sysif.listen_io);
	if (err) {
		close(fd);
		unlink(path);
		goto fail;
	}
	acma_log(bmc, INFO, "acma: system interface (KCS) on %s; its TCP port is closed",
		 path);
	return 0;
fail:
	acma_log(bmc, SETUP_ERROR, "acma: kcs=%s: %s", path, strerror(err));
	return err;
}
