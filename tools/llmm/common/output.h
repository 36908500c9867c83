/* output.h: every file the tool writes (sketch files, SVG charts, the demo's trace and sweep)
 * and its standard output, written so that a failure never goes unnoticed and never destroys
 * what the path named before.
 *
 * A regular file, or a missing one, is written as `install` and `sed -i` do: into a new
 * temporary file created in the target's own directory (mkstemp: O_CREAT | O_EXCL, so a link
 * planted at that name is never followed), flushed and fsync'ed, then renamed over the target,
 * which therefore holds either its old content or the complete new one. An existing file keeps
 * its permission bits; a new one gets 0666 minus the umask. A character or block device or a
 * FIFO (-o /dev/null, a pipe to another program) is written in place and stays what it is; a
 * directory, a socket or a symbolic link to nothing is refused with a message naming it. A
 * symbolic link to one of the others is followed: the file it points to is what is written.
 * Any write error (a full disk, /dev/full) is reported with the path, and the temporary file
 * is removed. */
#ifndef LLMM_CLI_OUTPUT_H
#define LLMM_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

/* An output file being written. */
typedef struct llmm_cli_out {
    FILE *f;     /* write the content here */
    char *path;  /* the file that receives it (a symbolic link resolved) */
    char *tmp;   /* the temporary file renamed over path; NULL: written in place */
    const char *name; /* the path as the user gave it, for messages */
} llmm_cli_out;

/* Open the output named path (see above). LLMM_CLI_EIO with a message naming path when it is a
 * directory or cannot be created; LLMM_CLI_ENOMEM. On failure nothing is left open. */
int llmm_cli_out_open(llmm_cli_out *o, const char *path, llmm_cli_error *err);
/* Finish it: flush, fsync, close, rename. LLMM_CLI_EIO ("PATH: cannot write: reason") when
 * any of it failed, the temporary file removed and the target untouched. o is released
 * either way. */
int llmm_cli_out_close(llmm_cli_out *o, llmm_cli_error *err);
/* Give up on it (after an error of the caller's): the temporary file is removed, a device
 * or FIFO closed. */
void llmm_cli_out_discard(llmm_cli_out *o);

/* The whole of a file in one call: open, write len bytes, close. */
int llmm_cli_out_write_file(const char *path, const void *buf, size_t len,
                            llmm_cli_error *err);

/* A scratch file for data that does not fit in memory: a new file in $TMPDIR (else /tmp),
 * removed from the directory at once (it lives while fd is open). The descriptor, or -1 with
 * a message naming the directory. */
int llmm_cli_scratch_open(llmm_cli_error *err);

/* The process's last word on its standard output, called by main() with the command's exit
 * status: flush and close stdout; when that fails, or any earlier write to it failed, print
 * "llmm: cannot write standard output: REASON" on stderr and return 1 for a status of 0
 * (any other status is returned unchanged). */
int llmm_cli_stdout_close(int status);
/* Flush standard output now (before writing files that follow what it printed): LLMM_CLI_EIO
 * after the same message, which llmm_cli_stdout_close then does not repeat. */
int llmm_cli_stdout_flush(void);

#endif /* LLMM_CLI_OUTPUT_H */
