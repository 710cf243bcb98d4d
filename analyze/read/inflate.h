/*
 * inflate.h - a compressed archive decompressed on a thread of its own.
 *
 * Decompression is the one step of a load that cannot be split into
 * items, so it runs beside the rest: kv_inflate_open() looks at the file's
 * first bytes and, when they are a compression libarchive reads (gzip,
 * bzip2, xz, zstd, lz4), starts a thread that runs libarchive's filter
 * with its raw format and queues the decompressed bytes in a few chunks.
 * The caller's libarchive reads the archive format (tar, zip) from those
 * chunks through kv_inflate_read(), handed to archive_read_open().
 *
 * kv_inflate_open() returns NULL for a file that is not compressed (or
 * that cannot be opened: the caller's own open names the error).  The
 * source belongs to the caller: kv_inflate_close() stops the thread and
 * frees it, after archive_read_free() of the archive that read from it.
 */
#ifndef KV_INFLATE_H
#define KV_INFLATE_H

#include <archive.h>
#include <stdint.h>

typedef struct kv_inflate kv_inflate;

kv_inflate *kv_inflate_open(const char *path);

/* archive_read_callback: the next chunk of decompressed bytes, valid until
 * the next call; 0 at the end, -1 (with the decompressor's message set on
 * a) when decompression failed. */
la_ssize_t kv_inflate_read(struct archive *a, void *src, const void **buf);

/* Compressed bytes read from the file up to the end of the chunk the
 * reader took last (kv_inflate_read): the same for the same data however
 * far ahead the thread has run (the compression ratio limit reads it). */
uint64_t kv_inflate_in(kv_inflate *src);

/* Stops the thread and frees src (NULL: nothing). */
void kv_inflate_close(kv_inflate *src);

#endif
