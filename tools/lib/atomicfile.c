// SPDX-License-Identifier: GPL-2.0
/*
 * atomicfile.c - a file replaced whole or not at all
 *
 * A reader that opens the file at any time, such as node_exporter's
 * textfile collector, sees the old content or the new one, never a part:
 * the new content is written to a temporary file in the same directory
 * (so that rename() cannot cross file systems), flushed to disk, then
 * renamed over the file. The temporary name starts with a dot and ends
 * in random characters, so that a reader of *.prom never picks it up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"

/**
 * atomic_open() - start writing a file that replaces @path when committed
 * @af: filled; atomic_commit() or atomic_abort() it
 * @path: the file
 *
 * The file gets the mode a new file would get (0666 less the umask).
 *
 * Return: 0, or -1 with errno set (the directory is not writable...).
 */
int atomic_open(struct atomic_file *af, const char *path)
{
	char *dcopy = strdup(path), *bcopy = strdup(path);
	mode_t mask;
	int fd = -1, err;

	memset(af, 0, sizeof(*af));
	if (!dcopy || !bcopy ||
	    asprintf(&af->tmp, "%s/.%s.XXXXXX", dirname(dcopy), basename(bcopy)) < 0) {
		af->tmp = NULL;
		errno = ENOMEM;
		goto fail;
	}
	af->path = strdup(path);
	if (!af->path) {
		errno = ENOMEM;
		goto fail;
	}
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		free(af->tmp);
		af->tmp = NULL;
		goto fail;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		goto fail;
	af->f = fdopen(fd, "w");
	if (!af->f)
		goto fail;
	free(dcopy);
	free(bcopy);
	return 0;
fail:
	err = errno;
	if (fd >= 0 && !af->f)
		close(fd);
	free(dcopy);
	free(bcopy);
	atomic_abort(af);
	errno = err;
	return -1;
}

/**
 * atomic_commit() - put the written content in place of the file
 * @af: from atomic_open(); freed
 *
 * Return: 0, or -1 with errno set when the content could not be written
 * whole; then the file is left as it was and the temporary one removed.
 */
int atomic_commit(struct atomic_file *af)
{
	int err = 0;

	if (fflush(af->f) || ferror(af->f) || fsync(fileno(af->f)))
		err = errno ? errno : EIO;
	if (fclose(af->f) && !err)
		err = errno;
	af->f = NULL;
	if (!err && rename(af->tmp, af->path))
		err = errno;
	if (!err) {
		free(af->tmp);
		af->tmp = NULL;
	}
	atomic_abort(af);
	errno = err;
	return err ? -1 : 0;
}

/**
 * atomic_abort() - leave the file as it was
 * @af: from atomic_open(), or after atomic_commit(); freed
 */
void atomic_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}
