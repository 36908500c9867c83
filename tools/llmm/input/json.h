/* json.h: the JSON tokenizer every JSON reader uses (json.c).
 *
 * Streaming: feed chunks of any size; memory is a fixed stack of open containers plus the one
 * token being read (a string only when its bytes are wanted). Beyond RFC 8259 it accepts the
 * literals NaN, Infinity and -Infinity where a number may stand (Python's json module writes
 * them, and so do the benchmark tools built on it) and, when asked, several top-level values
 * in a row (vLLM's --append-result files, JSON Lines). Everything else that is not JSON is an
 * error with its position.
 *
 * A reader hands the tokenizer four callbacks. Each container the reader enters gets a frame,
 * labelled by the reader when it opens; the frames of open containers are consecutive in
 * memory, so inside a callback f[-1] is the parent of a frame f that is not the outermost.
 * A reader skips what it does not read: a key callback answering LLMM_CLI_JSON_SKIP skips the
 * key's value, an open callback answering it skips the container just opened (its close is
 * not delivered either); nothing inside a skipped value reaches the reader, which also costs
 * less (no numbers converted, no strings decoded).
 */
#ifndef LLMM_CLI_JSON_H
#define LLMM_CLI_JSON_H

#include <stddef.h>
#include <stdint.h>

/* kinds of scalar */
enum { K_NULL, K_BOOL, K_NUMBER, K_STRING };

/* "null", "a boolean", "a number", "a string", for messages. */
const char *llmm_cli_json_kind_name(int kind);

/* A scalar as the tokenizer delivers it. */
typedef struct llmm_cli_json_value {
    int kind;
    int b;            /* K_BOOL: its value */
    double num;       /* K_NUMBER: its value (NaN or ±infinity for the three literals) */
    const char *text; /* K_NUMBER: its text; K_STRING: the decoded bytes when the reader asked
                         for them (LLMM_CLI_JSON_TEXT), else NULL */
    size_t len;       /* bytes at text; a string not decoded: its length in the file (0 iff
                         the string is empty) */
} llmm_cli_json_value;

/* One open container (an object or a list) the reader entered. */
typedef struct llmm_cli_json_frame {
    int type;          /* the reader's label, open's answer */
    int key;           /* object: the label of the current key, key's answer */
    size_t idx;        /* list: index of the current element; object: keys seen so far */
    unsigned char map; /* 1 object, 0 list */
    unsigned char text; /* strings directly inside are decoded */
} llmm_cli_json_frame;

/* Answers of the key and open callbacks besides a label (>= 0). */
#define LLMM_CLI_JSON_SKIP (-1) /* skip the value (key) or the container (open) */
#define LLMM_CLI_JSON_STOP (-2) /* stop: the reader recorded an error */
/* Or'ed into a label (key or open): strings directly in that value are decoded. */
#define LLMM_CLI_JSON_TEXT 0x40000000

typedef struct llmm_cli_json_handler {
    /* A key of the object f (decoded, not NUL-terminated): the label of the value to come,
     * SKIP or STOP. */
    int (*key)(void *self, llmm_cli_json_frame *f, const char *k, size_t len);
    /* A container opens inside parent (NULL at the top level): its label, SKIP or STOP. */
    int (*open)(void *self, llmm_cli_json_frame *parent, int map);
    /* A scalar inside f (NULL at the top level): 1 to go on, 0 to stop. */
    int (*scalar)(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v);
    /* The container of frame f closes (f[-1] is its parent unless it is outermost): 1 or 0.
     * NULL: nothing to do. */
    int (*close)(void *self, llmm_cli_json_frame *f);
} llmm_cli_json_handler;

/* Open containers at most (deeper input is an error). */
#define LLMM_CLI_JSON_DEPTH 512
/* Longest number or literal token. */
#define LLMM_CLI_JSON_BARE_MAX 512
/* Longest decoded string (a key or a string the reader asked for). */
#define LLMM_CLI_JSON_STRING_MAX ((size_t)64 << 20)

/* Return codes of feed and finish. */
enum { LLMM_CLI_JSON_OK = 0, LLMM_CLI_JSON_STOPPED = 1, LLMM_CLI_JSON_SYNTAX = 2,
       LLMM_CLI_JSON_NOMEM = 3 };

typedef struct llmm_cli_json {
    const llmm_cli_json_handler *h;
    void *self;
    int multi;             /* several top-level values may follow each other */
    int bom;               /* bytes of a UTF-8 byte-order mark matched at the start; -1 past it */
    int state;             /* what may come next (json.c) */
    size_t depth;          /* open containers */
    size_t skip;           /* 0, or the depth at which a skipped container opened */
    int skip_next;         /* the next value (after a key) is skipped */
    int text_next;         /* the next value's strings are decoded */
    uint64_t values;       /* top-level values completed */
    /* a token cut by the end of a chunk: 0 none, 1 a number or literal, 2 a string value, 3 a
     * key */
    int partial;
    size_t nbare;
    /* the string being read */
    int capture;           /* its bytes are decoded into sbuf */
    int esc;               /* after a backslash: 1; inside \uXXXX: 2 + hex digits read */
    uint32_t ucode, hi;    /* \u escape being read, pending high surrogate */
    uint64_t sraw;         /* raw length so far */
    char *sbuf;
    size_t slen, scap;
    /* positions */
    const char *chunk;     /* the chunk being fed */
    uint64_t base;         /* absolute offset of its first byte */
    uint64_t line, line_start; /* line (from 1) at its start and that line's offset */
    uint64_t tok;          /* absolute offset of the token being handled */
    uint64_t part_line, part_col; /* where a token cut by a chunk's end began */
    /* (init clears the fields above, not the buffers below) */
    char bare[LLMM_CLI_JSON_BARE_MAX + 1]; /* that token, when a number or literal */
    char msg[160];         /* the syntax error */
    llmm_cli_json_frame st[LLMM_CLI_JSON_DEPTH];
} llmm_cli_json;

/* Start reading (the object is large: embed it, do not put it on a small stack). */
void llmm_cli_json_init(llmm_cli_json *j, const llmm_cli_json_handler *h, void *self, int multi);
/* Free the string buffer; the object can be initialised again. */
void llmm_cli_json_free(llmm_cli_json *j);
/* The next bytes: LLMM_CLI_JSON_OK, STOPPED (a callback stopped), SYNTAX (j->msg) or NOMEM. */
int llmm_cli_json_feed(llmm_cli_json *j, const char *buf, size_t len);
/* The end of the input (a truncated document is a SYNTAX error). j->values tells how many
 * top-level values there were. */
int llmm_cli_json_finish(llmm_cli_json *j);
/* Line and column (from 1) of the token the tokenizer stopped at (after an error). */
void llmm_cli_json_where(const llmm_cli_json *j, uint64_t *line, uint64_t *col);

/* A number's value for a reader that wants an exact integer (genai-perf's nanosecond times):
 * the token as a non-negative integer that fits int64; 0 if it is not one. */
int llmm_cli_json_int(const llmm_cli_json_value *v, int64_t *out);

#endif /* LLMM_CLI_JSON_H */
