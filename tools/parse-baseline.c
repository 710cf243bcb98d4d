/*
 * parse-baseline.c - the floor for any jansson-based snapshot reader.
 *
 *   parse-baseline SNAPSHOT.tar.gz
 *
 * Decompresses the archive with libarchive and parses every JSON member
 * with jansson, whole (json_loadb on the member's bytes: a List is one
 * document, as a naive reader would take it), then frees it.  No hashing,
 * no checks, no model, no analysis, no output.  `make bench` divides
 * kvscope's wall time by this one's.  Prints members, bytes and objects
 * parsed; exits 1 on any error.
 */
#include <archive.h>
#include <archive_entry.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Objects in a document: the List's items, or 1. */
static size_t
count_values(json_t *v)
{
	json_t *items = json_object_get(v, "items");

	return json_is_array(items) ? json_array_size(items) : 1;
}

/* The current member's bytes into *buf (grown to *cap), *len of them;
 * -1 after printing the error. */
static int
read_member(struct archive *a, const char *file, const char *name,
    char **buf, size_t *cap, size_t *len)
{
	la_ssize_t n;

	*len = 0;
	for (;;) {
		if (*cap - *len < 1 << 16) {
			*cap = *cap ? *cap * 2 : 1 << 20;
			if ((*buf = realloc(*buf, *cap)) == NULL) {
				perror("realloc");
				return -1;
			}
		}
		n = archive_read_data(a, *buf + *len, *cap - *len);
		if (n < 0) {
			fprintf(stderr, "%s: %s: %s\n", file, name,
			    archive_error_string(a));
			return -1;
		}
		if (n == 0)
			return 0;
		*len += (size_t)n;
	}
}

/* A .json member parsed whole, else as JSON Lines (one document per
 * line), its objects added to *values; -1 after printing the error. */
static int
parse_member(const char *buf, size_t len, const char *file,
    const char *name, size_t *values)
{
	json_error_t jerr;
	json_t *doc = json_loadb(buf, len, 0, &jerr);
	size_t start = 0;

	if (doc != NULL) {
		*values += count_values(doc);
		json_decref(doc);
		return 0;
	}
	for (size_t i = 0; i <= len; i++) {
		if (i < len && buf[i] != '\n')
			continue;
		if (i > start) {
			doc = json_loadb(buf + start, i - start, 0, &jerr);
			if (doc == NULL) {
				fprintf(stderr, "%s: %s: %s\n", file, name,
				    jerr.text);
				return -1;
			}
			*values += count_values(doc);
			json_decref(doc);
		}
		start = i + 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct archive *a;
	struct archive_entry *ent;
	char *buf = NULL;
	size_t cap = 0, members = 0, values = 0;
	unsigned long long bytes = 0;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: parse-baseline SNAPSHOT.tar.gz\n");
		return 2;
	}
	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, argv[1], 1 << 16) != ARCHIVE_OK) {
		fprintf(stderr, "%s: %s\n", argv[1], archive_error_string(a));
		return 1;
	}
	for (;;) {
		int ar = archive_read_next_header(a, &ent);
		const char *name;
		size_t len, nl;

		if (ar == ARCHIVE_EOF)
			break;
		if (ar != ARCHIVE_OK && ar != ARCHIVE_WARN) {
			fprintf(stderr, "%s: %s\n", argv[1],
			    archive_error_string(a));
			rc = 1;
			break;
		}
		if (archive_entry_filetype(ent) != AE_IFREG)
			continue;
		name = archive_entry_pathname(ent);
		if (read_member(a, argv[1], name, &buf, &cap, &len) != 0)
			return 1;
		members++;
		bytes += len;
		nl = strlen(name);
		if (nl > 5 && strcmp(name + nl - 5, ".json") == 0 &&
		    parse_member(buf, len, argv[1], name, &values) != 0)
			return 1;
	}
	archive_read_free(a);
	free(buf);
	printf("%zu members, %llu bytes, %zu objects\n", members, bytes,
	    values);
	return rc;
}
