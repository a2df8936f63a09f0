/*  =========================================================================
    gw_model_card - the model store: GraphQL model_card and model_cards

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"

bool
gw_model_card_is_root(const char *name)
{
    return strcmp(name, "model_card") == 0 || strcmp(name, "model_cards") == 0;
}

//  ---------------------------------------------------------------------------
//  Reading the folders' files

typedef struct {
    gw_request_t *r;
    size_t pending; //  folders still being read
    bool readmes;   //  the document shows READMEs: read them
    gw_model_card_done_fn *done;
    void *arg;
} fetch_t;

typedef struct {
    fetch_t *fetch;
    char id[GW_VFOLDER_ID_SIZE];
    char host[GW_STORAGE_HOST_MAX];
    char definition[32]; //  the definition file the listing found, or ""
    char readme[256];    //  the README.* it found, or ""
    json_t *out;         //  r->prefetch_cards[id] (borrowed)
} folder_t;

static void s_read(folder_t *folder, const char *path, size_t max, bus_reply_fn *done);

//  One folder is read: the whole fetch ends with the last one.
static void
s_folder_done(folder_t *folder)
{
    fetch_t *fetch = folder->fetch;
    free(folder);
    if (--fetch->pending == 0) {
        gw_model_card_done_fn *done = fetch->done;
        void *arg = fetch->arg;
        free(fetch);
        done(arg);
    }
}

static void
s_on_readme(void *arg, const bus_reply_t *reply)
{
    folder_t *folder = arg;
    proto_storage_files_read_rep_t rep;
    bus_error_t err = {0};
    //  A README that is too large or unreadable leaves the card without
    //  one rather than failing it: the model is still usable.
    if (reply->status == BUS_OK &&
        proto_storage_files_read_rep_decode(&rep, reply->body, reply->body_size, &err) ==
            BUS_OK) {
        //  Not UTF-8 (json_stringn refuses it) is no text to show.
        json_t *text = json_stringn((const char *) rep.data, rep.data_size);
        if (text) {
            const char *dot = strrchr(folder->readme, '.');
            json_object_set_new(folder->out, "readme", text);
            json_object_set_new(folder->out, "readme_filetype",
                                json_string(dot ? dot + 1 : ""));
        }
        proto_storage_files_read_rep_clear(&rep);
    } else
        bus_log_info("model card readme unread folder=%s file=%s status=%s", folder->id,
                     folder->readme, bus_status_str(reply->status));
    s_folder_done(folder);
}

//  Reads the README when the document shows it: a listing that does not
//  costs no read of up to GW_MODEL_CARD_README_MAX a folder.
static void
s_next_readme(folder_t *folder)
{
    if (*folder->readme && folder->fetch->readmes)
        s_read(folder, folder->readme, GW_MODEL_CARD_README_MAX, s_on_readme);
    else
        s_folder_done(folder);
}

static void
s_on_definition(void *arg, const bus_reply_t *reply)
{
    folder_t *folder = arg;
    proto_storage_files_read_rep_t rep;
    bus_error_t err = {0};
    char detail[1024];
    if (reply->status != BUS_OK) {
        snprintf(detail, sizeof detail, "Failed to fetch model definition file: %s",
                 reply->detail ? reply->detail : bus_status_str(reply->status));
        json_object_set_new(folder->out, "error", gw_model_def_message(detail));
    } else if (proto_storage_files_read_rep_decode(&rep, reply->body, reply->body_size,
                                                   &err) != BUS_OK)
        json_object_set_new(folder->out, "error", gw_model_def_message(err.detail));
    else {
        json_t *card = gw_model_def_card(folder->definition, (const char *) rep.data,
                                         rep.data_size, detail, sizeof detail);
        proto_storage_files_read_rep_clear(&rep);
        if (card)
            json_object_set_new(folder->out, "definition", card);
        else
            json_object_set_new(folder->out, "error", gw_model_def_message(detail));
    }
    s_next_readme(folder);
}

//  Whether name is a README the card shows: README.<ext>, in any case.
static bool
s_is_readme(const char *name)
{
    return strncasecmp(name, "readme.", 7) == 0 && name[7];
}

static void
s_on_listed(void *arg, const bus_reply_t *reply)
{
    folder_t *folder = arg;
    proto_storage_files_list_rep_t rep;
    bus_error_t err = {0};
    if (reply->status != BUS_OK ||
        proto_storage_files_list_rep_decode(&rep, reply->body, reply->body_size, &err) !=
            BUS_OK) {
        char detail[512];
        snprintf(detail, sizeof detail, "Failed to fetch definition file from folder: %s",
                 reply->status != BUS_OK && reply->detail ? reply->detail
                 : reply->status != BUS_OK                ? bus_status_str(reply->status)
                                                          : err.detail);
        json_object_set_new(folder->out, "error", gw_model_def_message(detail));
        s_folder_done(folder);
        return;
    }
    //  model-definition.yaml before .yml, as the serving side looks for it;
    //  the first README in name order.
    for (size_t i = 0; i < rep.entries_count; i++) {
        const proto_storage_entry_t *entry = &rep.entries[i];
        if (strcmp(entry->type, "FILE") != 0)
            continue;
        if (strcmp(entry->name, "model-definition.yaml") == 0 ||
            (strcmp(entry->name, "model-definition.yml") == 0 && !*folder->definition))
            snprintf(folder->definition, sizeof folder->definition, "%s", entry->name);
        if (s_is_readme(entry->name) && !*folder->readme &&
            strlen(entry->name) < sizeof folder->readme)
            snprintf(folder->readme, sizeof folder->readme, "%s", entry->name);
    }
    proto_storage_files_list_rep_clear(&rep);
    if (*folder->definition)
        s_read(folder, folder->definition, GW_MODEL_CARD_DEF_MAX, s_on_definition);
    else {
        //  No definition: a card of the folder alone, which cannot be
        //  deployed (POST /services would refuse it), and says so.
        json_object_set_new(folder->out, "error",
                            json_string(GW_MODEL_CARD_NO_DEFINITION));
        s_next_readme(folder);
    }
}

//  Asks the folder's storage-proxy for one file of its root.
static void
s_read(folder_t *folder, const char *path, size_t max, bus_reply_fn *done)
{
    proto_storage_files_read_req_t in;
    proto_storage_files_read_req_init(&in);
    in.id = folder->id;
    in.volume = gw_storage_volume_of(folder->host);
    in.path = path;
    in.max = max;
    bus_error_t err = {0};
    bus_writer_t *writer = proto_storage_files_read_req_writer(&in, &err);
    gw_storage_call(gw_server_storage(folder->fetch->r->gw), folder->host,
                    PROTO_STORAGE_FILES_READ, writer, &err, done, folder);
}

//  The store's folders of the caller's domain, oldest first. NULL on a
//  database error.
static json_t *
s_store_folders(gw_request_t *r)
{
    return gw_vfolder_model_store(gw_server_db(r->gw), r->who.domain,
                                  GW_MODEL_CARD_STORE_MAX);
}

//  A card's id or a folder's id as the folder's id (32 hex digits), or
//  false. The Relay id is base64 of "ModelCard:<uuid>".
static bool
s_folder_id_of(const char *text, char out[GW_VFOLDER_ID_SIZE])
{
    if (!text)
        return false;
    if (gw_vfolder_id_normal(text, out))
        return true;
    size_t len = strlen(text);
    if (len == 0 || len > 128 || len % 4 != 0)
        return false;
    unsigned char decoded[128];
    int n = EVP_DecodeBlock(decoded, (const unsigned char *) text, (int) len);
    if (n < 0)
        return false;
    while (n > 0 && text[len - 1] == '=' && len--)
        n--; //  EVP_DecodeBlock counts the padding as bytes
    decoded[n] = '\0';
    const char *prefix = "ModelCard:";
    return strncmp((const char *) decoded, prefix, strlen(prefix)) == 0 &&
           gw_vfolder_id_normal((const char *) decoded + strlen(prefix), out);
}

//  Whether ids (NULL: every folder) asks for the folder id.
static bool
s_wanted(json_t *ids, const char *id)
{
    if (!ids)
        return true;
    size_t index;
    json_t *want;
    json_array_foreach(ids, index, want)
    {
        char normal[GW_VFOLDER_ID_SIZE];
        if (s_folder_id_of(json_string_value(want), normal) && strcmp(normal, id) == 0)
            return true;
    }
    return false;
}

void
gw_model_card_fetch(
    gw_request_t *r, json_t *ids, bool readmes, gw_model_card_done_fn *done, void *arg)
{
    json_t *rows = s_store_folders(r);
    fetch_t *fetch = calloc(1, sizeof *fetch);
    if (!json_is_object(r->prefetch_cards)) {
        json_decref(r->prefetch_cards);
        r->prefetch_cards = json_object();
    }
    if (!rows || !fetch) {
        //  The resolver reports what it cannot read.
        json_decref(rows);
        free(fetch);
        done(arg);
        return;
    }
    fetch->r = r;
    fetch->readmes = readmes;
    fetch->done = done;
    fetch->arg = arg;
    fetch->pending = 1; //  held until every read was asked
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        const char *id = json_string_value(json_object_get(row, "id"));
        const char *host = json_string_value(json_object_get(row, "host"));
        if (!id || !host || !s_wanted(ids, id))
            continue;
        folder_t *folder = calloc(1, sizeof *folder);
        json_t *out = json_object();
        if (!folder || !out) {
            free(folder);
            json_decref(out);
            continue;
        }
        folder->fetch = fetch;
        snprintf(folder->id, sizeof folder->id, "%s", id);
        snprintf(folder->host, sizeof folder->host, "%s", host);
        folder->out = out;
        json_object_set_new(r->prefetch_cards, id, out);
        fetch->pending++;
        proto_storage_files_list_req_t in;
        proto_storage_files_list_req_init(&in);
        in.id = folder->id;
        in.volume = gw_storage_volume_of(folder->host);
        in.path = "";
        bus_error_t err = {0};
        bus_writer_t *writer = proto_storage_files_list_req_writer(&in, &err);
        gw_storage_call(gw_server_storage(r->gw), folder->host, PROTO_STORAGE_FILES_LIST,
                        writer, &err, s_on_listed, folder);
    }
    json_decref(rows);
    if (--fetch->pending == 0) {
        free(fetch);
        done(arg);
    }
}

//  ---------------------------------------------------------------------------
//  Cards

//  metadata's text member key, or fallback (which may be NULL: "").
static const char *
s_meta(json_t *metadata, const char *key, const char *fallback)
{
    const char *text = json_string_value(json_object_get(metadata, key));
    return text && *text ? text : fallback ? fallback : "";
}

//  A folder row and what was read from it (NULL: nothing, it was not
//  asked for or went away) as GraphQL's ModelCard.
static json_t *
s_card(json_t *row, json_t *files)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    const char *folder_name = json_string_value(json_object_get(row, "name"));
    const char *creator = json_string_value(json_object_get(row, "creator"));
    const char *created = json_string_value(json_object_get(row, "created_at"));
    json_t *vfolder = json_pack(
        "{s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O}", "id",
        json_object_get(row, "id"), "name", json_object_get(row, "name"), "host",
        json_object_get(row, "host"), "usage_mode", json_object_get(row, "usage_mode"),
        "permission", json_object_get(row, "permission"), "ownership_type",
        json_object_get(row, "ownership_type"), "group", json_object_get(row, "group_id"),
        "group_name", json_object_get(row, "group_name"), "creator",
        json_object_get(row, "creator"), "cloneable", json_object_get(row, "cloneable"),
        "created_at", json_object_get(row, "created_at"));
    const char *error = json_string_value(json_object_get(files, "error"));
    if (!files)
        error = "the folder could not be read";
    if (error) {
        //  Only what the folder itself says, as Backend.AI answers a card
        //  it could not parse, and its README (a folder without a
        //  definition may still describe itself).
        return json_pack("{s:o, s:s, s:s, s:s, s:s?, s:o, s:s, s:O?, s:O?}", "id",
                         gw_gql_global_id("ModelCard", id), "row_id", id, "name",
                         folder_name, "author", creator ? creator : "", "created_at",
                         created, "vfolder", vfolder, "error_msg", error, "readme",
                         json_object_get(files, "readme"), "readme_filetype",
                         json_object_get(files, "readme_filetype"));
    }
    json_t *definition = json_object_get(files, "definition");
    json_t *metadata = json_object_get(definition, "metadata");
    const char *name = json_string_value(json_object_get(definition, "name"));
    json_t *min_resource = json_object_get(metadata, "min_resource");
    //  min_resource is a JSONString, as Backend.AI's graphene type answers it.
    char *min_text =
        min_resource ? json_dumps(min_resource, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_t *framework = json_object_get(metadata, "framework");
    json_t *label = json_object_get(metadata, "label");
    const char *created_meta =
        s_meta(metadata, "created", s_meta(metadata, "created_at", NULL));
    const char *modified_meta =
        s_meta(metadata, "last_modified", s_meta(metadata, "modified_at", NULL));
    json_t *card = json_pack(
        "{s:o, s:s, s:s, s:s, s:s, s:s, s:s?, s:s?, s:s, s:s, s:s, s:s, s:o, s:o, s:s,"
        " s:s?, s:O?, s:O?, s:o, s:n}",
        "id", gw_gql_global_id("ModelCard", id), "row_id", id, "name",
        name ? name : folder_name, "author", s_meta(metadata, "author", creator), "title",
        s_meta(metadata, "title", folder_name), "version",
        s_meta(metadata, "version", NULL), "created_at",
        *created_meta ? created_meta : created, "modified_at",
        *modified_meta ? modified_meta : created, "description",
        s_meta(metadata, "description", NULL), "task", s_meta(metadata, "task", NULL),
        "category", s_meta(metadata, "category", NULL), "architecture",
        s_meta(metadata, "architecture", NULL), "framework",
        framework ? json_incref(framework) : json_array(), "label",
        label ? json_incref(label) : json_array(), "license",
        s_meta(metadata, "license", NULL), "min_resource", min_text ? min_text : "{}",
        "readme", json_object_get(files, "readme"), "readme_filetype",
        json_object_get(files, "readme_filetype"), "vfolder", vfolder, "error_msg");
    free(min_text);
    return card;
}

static json_t *
q_model_card(gw_request_t *r, json_t *args, bus_error_t *err)
{
    char id[GW_VFOLDER_ID_SIZE];
    if (!s_folder_id_of(gw_gql_arg(args, "id"), id))
        return bus_error_set(err, BUS_STATUS_INVALID,
                             "id: a model card's id or its folder's id"),
               NULL;
    json_t *rows = s_store_folders(r);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the model store"),
               NULL;
    json_t *card = NULL;
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        if (strcmp(json_string_value(json_object_get(row, "id")), id) == 0)
            card = s_card(row, json_object_get(r->prefetch_cards, id));
    }
    json_decref(rows);
    return card ? card : json_null();
}

//  An integer argument: 0 with *out (-1 when absent), or -1 with err.
static int
s_count_arg(json_t *args, const char *name, json_int_t *out, bus_error_t *err)
{
    json_t *value = json_object_get(args, name);
    *out = -1;
    if (!value || json_is_null(value))
        return 0;
    if (!json_is_integer(value) || json_integer_value(value) < 0 ||
        json_integer_value(value) > GW_MODEL_CARD_PAGE_MAX)
        return bus_error_set(err, BUS_STATUS_INVALID, "%s: an integer from 0 to %d", name,
                             GW_MODEL_CARD_PAGE_MAX);
    *out = json_integer_value(value);
    return 0;
}

//  The index of the card whose id is cursor in cards, or -1 with err.
static json_int_t
s_cursor_at(json_t *cards, const char *name, const char *cursor, bus_error_t *err)
{
    size_t index;
    json_t *card;
    json_array_foreach(cards, index, card)
    {
        if (strcmp(json_string_value(json_object_get(card, "id")), cursor) == 0)
            return (json_int_t) index;
    }
    bus_error_set(err, BUS_STATUS_INVALID, "%s: no such cursor", name);
    return -1;
}

static json_t *
q_model_cards(gw_request_t *r, json_t *args, bus_error_t *err)
{
    json_int_t first, last, offset;
    if (s_count_arg(args, "first", &first, err) ||
        s_count_arg(args, "last", &last, err) ||
        s_count_arg(args, "offset", &offset, err))
        return NULL;
    json_t *rows = s_store_folders(r);
    if (!rows)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot read the model store"),
               NULL;
    json_t *cards = json_array();
    size_t index;
    json_t *row;
    json_array_foreach(rows, index, row)
    {
        const char *id = json_string_value(json_object_get(row, "id"));
        json_array_append_new(cards, s_card(row, json_object_get(r->prefetch_cards, id)));
    }
    json_decref(rows);
    //  filter and order as every list's: the minilang over the items.
    json_t *all_args = json_pack("{s:i, s:i}", "limit", GW_GQL_PAGE_MAX, "offset", 0);
    json_object_set(all_args, "filter", json_object_get(args, "filter"));
    json_object_set(all_args, "order", json_object_get(args, "order"));
    json_t *page = gw_gql_page(cards, all_args, err);
    json_decref(all_args);
    if (!page)
        return NULL;
    json_t *items = json_object_get(page, "items");
    json_int_t total = (json_int_t) json_array_size(items);
    //  The window: after/before cut it, offset skips, first/last take.
    json_int_t start = 0, end = total;
    const char *after = gw_gql_arg(args, "after");
    const char *before = gw_gql_arg(args, "before");
    if (after && (start = s_cursor_at(items, "after", after, err) + 1) == 0) {
        json_decref(page);
        return NULL;
    }
    if (before && (end = s_cursor_at(items, "before", before, err)) < 0) {
        json_decref(page);
        return NULL;
    }
    if (offset > 0)
        start += offset;
    if (start > end)
        start = end;
    if (first >= 0 && end - start > first)
        end = start + first;
    if (last >= 0 && end - start > last)
        start = end - last;
    json_t *edges = json_array();
    for (json_int_t i = start; i < end; i++) {
        json_t *card = json_array_get(items, (size_t) i);
        json_array_append_new(
            edges,
            json_pack("{s:O, s:O}", "cursor", json_object_get(card, "id"), "node", card));
    }
    json_t *start_cursor =
        start < end ? json_object_get(json_array_get(items, (size_t) start), "id") : NULL;
    json_t *end_cursor =
        start < end ? json_object_get(json_array_get(items, (size_t) end - 1), "id")
                    : NULL;
    json_t *out =
        json_pack("{s:I, s:o, s:{s:b, s:b, s:O?, s:O?}}", "count", total, "edges", edges,
                  "pageInfo", "hasNextPage", end<total, "hasPreviousPage", start> 0,
                  "startCursor", start_cursor, "endCursor", end_cursor);
    json_decref(page);
    return out;
}

const gw_gql_root_t gw_model_card_gql[] = {
    {"query", "model_card", q_model_card},
    {"query", "model_cards", q_model_cards},
    {NULL, NULL, NULL},
};
