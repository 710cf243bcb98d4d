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
		size_t len = 0, nl;
		la_ssize_t n;

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
		for (;;) {
			if (cap - len < 1 << 16) {
				cap = cap ? cap * 2 : 1 << 20;
				if ((buf = realloc(buf, cap)) == NULL) {
					perror("realloc");
					return 1;
				}
			}
			n = archive_read_data(a, buf + len, cap - len);
			if (n < 0) {
				fprintf(stderr, "%s: %s: %s\n", argv[1], name,
				    archive_error_string(a));
				return 1;
			}
			if (n == 0)
				break;
			len += (size_t)n;
		}
		members++;
		bytes += len;
		nl = strlen(name);
		if (nl > 5 && strcmp(name + nl - 5, ".json") == 0) {
			json_error_t jerr;
			json_t *doc = json_loadb(buf, len, 0, &jerr);

			if (doc == NULL) {
				/* JSON Lines: one document per line */
				size_t start = 0;

				for (size_t i = 0; i <= len; i++) {
					if (i < len && buf[i] != '\n')
						continue;
					if (i > start) {
						doc = json_loadb(buf + start,
						    i - start, 0, &jerr);
						if (doc == NULL) {
							fprintf(stderr,
							    "%s: %s: "
							    "%s\n", argv[1],
							    name, jerr.text);
							return 1;
						}
						values += count_values(doc);
						json_decref(doc);
					}
					start = i + 1;
				}
				continue;
			}
			values += count_values(doc);
			json_decref(doc);
		}
	}
	archive_read_free(a);
	free(buf);
	printf("%zu members, %llu bytes, %zu objects\n", members, bytes,
	    values);
	return rc;
}
