/*
 * yaml.c - one jansson document written as JSON (jansson) or YAML
 * (libyaml's emitter, which does every quoting and escaping), see view.h.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "render/view.h"

const char *const kv_outfmt_names[KV_OUT_COUNT] = {
	[KV_OUT_TEXT] = "text", [KV_OUT_WIDE] = "wide",
	[KV_OUT_JSON] = "json", [KV_OUT_YAML] = "yaml",
	[KV_OUT_JUNIT] = "junit", [KV_OUT_PROM] = "prom",
	[KV_OUT_SARIF] = "sarif",
};

static int
yaml_out(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, data) == size;
}

/* Whether a plain scalar s would be read back as a string by YAML 1.1
 * and 1.2 readers (otherwise it is written quoted, by libyaml). */
static bool
plain_is_string(const char *s)
{
	static const char *const words[] = {
		"y", "n", "yes", "no", "true", "false", "on", "off", "null",
		"~",
	};

	if (*s == '\0' || strchr("0123456789+-.", *s) != NULL)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return false;
	return true;
}

static int
scalar(yaml_emitter_t *em, const char *s, bool is_string)
{
	yaml_event_t ev;
	bool plain = !is_string || plain_is_string(s);

	/* a string may be plain only when it reads back as one; libyaml
	 * then picks plain, single- or double-quoted as the text needs */
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)s, (int)strlen(s), plain, is_string,
	    YAML_ANY_SCALAR_STYLE))
		return 0;
	return yaml_emitter_emit(em, &ev);
}

static int
node(yaml_emitter_t *em, const json_t *v)
{
	yaml_event_t ev;
	char num[40];

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *x;

		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_MAPPING_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_object_foreach((json_t *)v, k, x)
			if (!scalar(em, k, true) || !node(em, x))
				return 0;
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *x;

		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_array_foreach(v, i, x)
			if (!node(em, x))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	case JSON_STRING:
		return scalar(em, json_string_value(v), true);
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return scalar(em, num, false);
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		return scalar(em, num, false);
	case JSON_TRUE:
		return scalar(em, "true", false);
	case JSON_FALSE:
		return scalar(em, "false", false);
	default:
		return scalar(em, "null", false);
	}
}

int
kv_yaml_write(const json_t *doc, FILE *f, kv_err *err)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	int ok;

	if (!yaml_emitter_initialize(&em))
		return kv_seterr(err, "yaml: cannot start the emitter");
	yaml_emitter_set_output(&em, yaml_out, f);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	    yaml_emitter_emit(&em, &ev) &&
	    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0) &&
	    yaml_emitter_emit(&em, &ev) && node(&em, doc) &&
	    yaml_document_end_event_initialize(&ev, 1) &&
	    yaml_emitter_emit(&em, &ev) &&
	    yaml_stream_end_event_initialize(&ev) &&
	    yaml_emitter_emit(&em, &ev) && yaml_emitter_flush(&em);
	yaml_emitter_delete(&em);
	if (!ok)
		return kv_seterr(err, "yaml: cannot write the document");
	return KV_OK;
}

int
kv_doc_write(const json_t *doc, kv_outfmt fmt, FILE *f, kv_err *err)
{
	if (fmt == KV_OUT_YAML)
		return kv_yaml_write(doc, f, err);
	if (json_dumpf(doc, f, JSON_INDENT(2)) != 0 || fputc('\n', f) == EOF)
		return kv_seterr(err, "json: cannot write the document");
	return KV_OK;
}
