/*  =========================================================================
    gw_minilang_test - unit tests for gw_minilang

    Each operator parsed and matched against JSON items as the resolvers
    make them, the grouping of & | ! and parentheses, string escapes,
    in-lists, null and SQL's three-valued logic, errors with their line and
    column and the unknown field, ordering by several keys both ways and
    its stability, and hostile texts (deep nesting, huge and unterminated
    strings, odd bytes) that must give errors, never crashes.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

static const char *const s_fields[] = {"name", "email",      "age",  "score", "active",
                                       "tags", "created_at", "note", "role",  NULL};

static json_t *s_items;

static void
s_setup(void)
{
    if (!s_items)
        s_items = json_loads(
            "["
            "{\"name\":\"alice\",\"email\":\"alice@lablup.com\",\"age\":30,\"score\":1.5,"
            "\"active\":true,\"tags\":[\"a\",\"b\"],\"created_at\":\"2024-01-02T03:04:"
            "05Z\","
            "\"note\":null,\"role\":\"admin\"},"
            "{\"name\":\"Bob\",\"email\":\"bob@example.org\",\"age\":25,\"score\":2,"
            "\"active\":false,\"tags\":[\"b\"],\"created_at\":\"2023-12-31T23:59:59Z\","
            "\"note\":\"say \\\"hi\\\"\",\"role\":\"user\"},"
            "{\"name\":\"carol_x\",\"email\":\"ADMIN@corp.io\",\"age\":41,"
            "\"active\":true,\"tags\":[],\"created_at\":\"2025-06-01T00:00:00Z\","
            "\"note\":\"50%\",\"role\":\"user\"}"
            "]",
            0, NULL);
}

//  The names of the items the filter keeps, space-separated; or "ERR: msg".
static char s_out[512];

static const char *
s_run(const char *text)
{
    s_setup();
    char error[256];
    gw_minilang_filter_t *f =
        gw_minilang_filter_parse(text, s_fields, error, sizeof error);
    if (!f) {
        snprintf(s_out, sizeof s_out, "ERR: %s", error);
        return s_out;
    }
    s_out[0] = '\0';
    for (size_t i = 0; i < json_array_size(s_items); i++) {
        json_t *item = json_array_get(s_items, i);
        if (gw_minilang_filter_match(f, item)) {
            if (s_out[0])
                strcat(s_out, " ");
            strcat(s_out, json_string_value(json_object_get(item, "name")));
        }
    }
    gw_minilang_filter_destroy(&f);
    return s_out;
}

static void
test_comparisons(void)
{
    T_EQ_STR(s_run("name == \"alice\""), "alice");
    T_EQ_STR(s_run("name != \"alice\""), "Bob carol_x");
    T_EQ_STR(s_run("age > 25"), "alice carol_x");
    T_EQ_STR(s_run("age >= 30"), "alice carol_x");
    T_EQ_STR(s_run("age < 30"), "Bob");
    T_EQ_STR(s_run("age <= 30"), "alice Bob");
    T_EQ_STR(s_run("score >= 1.5"), "alice Bob");
    T_EQ_STR(s_run("score == 2.0"), "Bob");
    T_EQ_STR(s_run("age == +30"), "alice");
    T_EQ_STR(s_run("age > -1e3"), "alice Bob carol_x");
    T_EQ_STR(s_run("active == true"), "alice carol_x");
    T_EQ_STR(s_run("active == false"), "Bob");
    T_EQ_STR(s_run("created_at > \"2024-01-01T00:00:00Z\""), "alice carol_x");
    T_EQ_STR(s_run("name==\"Bob\""), "Bob");
    T_EQ_STR(s_run("\n name\t==\r\n\"Bob\" "), "Bob");
    //  mismatched types never equal
    T_EQ_STR(s_run("age == \"30\""), "");
    T_EQ_STR(s_run("age != \"30\""), "alice Bob carol_x");
}

static void
test_like(void)
{
    T_EQ_STR(s_run("email like \"%@lablup.com\""), "alice");
    T_EQ_STR(s_run("email like \"%admin%\""), "");
    T_EQ_STR(s_run("email ilike \"%admin%\""), "carol_x");
    T_EQ_STR(s_run("name like \"_ob\""), "Bob");
    T_EQ_STR(s_run("name ilike \"B%\""), "Bob");
    T_EQ_STR(s_run("name like \"b%\""), "");
    T_EQ_STR(s_run("name like \"%\""), "alice Bob carol_x");
    T_EQ_STR(s_run("name like \"%%%_%%\""), "alice Bob carol_x");
    T_EQ_STR(s_run("name like \"carol\\_%\""), "carol_x");
    T_EQ_STR(s_run("name like \"alice_\""), "");
    T_EQ_STR(s_run("note like \"%\\%\""), "carol_x");
    T_EQ_STR(s_run("name contains \"o\""), "Bob carol_x");
    T_EQ_STR(s_run("tags contains \"a\""), "alice");
    T_EQ_STR(s_run("tags contains [\"a\", \"b\"]"), "alice");
    T_EQ_STR(s_run("tags == \"b\""), "alice Bob");
    T_EQ_STR(s_run("email ilike 1"), "ERR: Query filter parsing error: like and ilike "
                                     "need a string at line 1, column 7");
}

static void
test_in_and_null(void)
{
    T_EQ_STR(s_run("age in [25, 41]"), "Bob carol_x");
    T_EQ_STR(s_run("name in []"), "");
    T_EQ_STR(s_run("name in [\"alice\", null]"), "alice");
    T_EQ_STR(s_run("!(name in [\"alice\", null])"), "");
    T_EQ_STR(s_run("!(name in [\"alice\"])"), "Bob carol_x");
    T_EQ_STR(s_run("role in [\"admin\"]"), "alice");
    T_EQ_STR(s_run("note == null"), "alice");
    T_EQ_STR(s_run("note != null"), "Bob carol_x");
    T_EQ_STR(s_run("note is null"), "alice");
    T_EQ_STR(s_run("note isnot null"), "Bob carol_x");
    T_EQ_STR(s_run("score is null"), "carol_x");
    T_EQ_STR(s_run("active is true"), "alice carol_x");
    T_EQ_STR(s_run("active isnot true"), "Bob");
    //  unknown is not a match, and its negation neither
    T_EQ_STR(s_run("score > 0"), "alice Bob");
    T_EQ_STR(s_run("!(score > 0)"), "");
    T_EQ_STR(s_run("score > 0 | age > 40"), "alice Bob carol_x");
    T_EQ_STR(s_run("note > null"), "");
    T_EQ_STR(s_run("age in 3"),
             "ERR: Query filter parsing error: in needs a [list] at line 1, column 5");
    T_EQ_STR(s_run("age == [3]"), "ERR: Query filter parsing error: a [list] goes only "
                                  "with in or contains at line 1, column 5");
    T_EQ_STR(s_run("age is 3"), "ERR: Query filter parsing error: is and isnot need "
                                "null, true or false at line 1, column 5");
}

static void
test_grouping(void)
{
    //  & and | group to the right with the same precedence
    T_EQ_STR(s_run("name == \"alice\" | name == \"Bob\" & age > 100"), "alice");
    T_EQ_STR(s_run("name == \"Bob\" & age > 100 | name == \"alice\""), "");
    T_EQ_STR(s_run("(name == \"Bob\" & age > 100) | name == \"alice\""), "alice");
    T_EQ_STR(s_run("age > 20 & age < 40 & active == true"), "alice");
    T_EQ_STR(s_run("age < 26 | age > 40 | name == \"alice\""), "alice Bob carol_x");
    //  ! takes everything to its right
    T_EQ_STR(s_run("!name == \"alice\""), "Bob carol_x");
    T_EQ_STR(s_run("!name == \"alice\" & age > 30"), "alice Bob carol_x");
    T_EQ_STR(s_run("(!name == \"alice\") & age > 30"), "carol_x");
    T_EQ_STR(s_run("!!name == \"alice\""), "alice");
    T_EQ_STR(s_run("age > 26 & !name == \"alice\""), "carol_x");
    T_EQ_STR(s_run("((((age == 25))))"), "Bob");
}

static void
test_escapes(void)
{
    T_EQ_STR(s_run("note == \"say \\\"hi\\\"\""), "Bob");
    T_EQ_STR(s_run("note like \"%\\\"hi\\\"\""), "Bob");
    //  other backslash pairs stay as written (Backend.AI passes them on)
    s_setup();
    char error[128];
    json_t *item = json_pack("{s:s}", "note", "a\\nb");
    gw_minilang_filter_t *f =
        gw_minilang_filter_parse("note == \"a\\nb\"", s_fields, error, sizeof error);
    T_ASSERT(f);
    T_ASSERT(gw_minilang_filter_match(f, item));
    gw_minilang_filter_destroy(&f);
    f = gw_minilang_filter_parse("note == \"a\\\\nb\"", s_fields, error, sizeof error);
    T_ASSERT(f);
    T_ASSERT(!gw_minilang_filter_match(f, item));
    gw_minilang_filter_destroy(&f);
    gw_minilang_filter_destroy(&f);
    T_ASSERT(f == NULL);
    json_decref(item);
    //  UTF-8 in strings; _ takes a whole character
    item = json_pack("{s:s}", "name", "caf\xc3\xa9");
    f = gw_minilang_filter_parse("name like \"caf_\"", s_fields, error, sizeof error);
    T_ASSERT(f);
    T_ASSERT(gw_minilang_filter_match(f, item));
    gw_minilang_filter_destroy(&f);
    json_decref(item);
}

static void
test_errors(void)
{
    T_EQ_STR(s_run("nope == 1"), "ERR: Query filter parsing error: ('Unknown/unsupported "
                                 "field name', 'nope')");
    T_EQ_STR(s_run(""), "ERR: Query filter parsing error: unexpected end of input at "
                        "line 1, column 1");
    T_EQ_STR(s_run("name = \"a\""),
             "ERR: Query filter parsing error: unexpected '=' at line 1, column 6");
    T_EQ_STR(s_run("name == \"a\"\n  & age ~ 3"),
             "ERR: Query filter parsing error: unexpected '~' at line 2, column 9");
    T_EQ_STR(s_run("name == \"abc"),
             "ERR: Query filter parsing error: unterminated string at line 1, column 9");
    T_EQ_STR(s_run("name == \"a\nb\""),
             "ERR: Query filter parsing error: unterminated string at line 1, column 9");
    T_EQ_STR(
        s_run("(age == 1"),
        "ERR: Query filter parsing error: unexpected end of input at line 1, column 10");
    T_EQ_STR(s_run("age == 1)"),
             "ERR: Query filter parsing error: unexpected ')' at line 1, column 9");
    T_EQ_STR(
        s_run("age == 1 &"),
        "ERR: Query filter parsing error: unexpected end of input at line 1, column 11");
    T_EQ_STR(s_run("age == 1 age == 2"),
             "ERR: Query filter parsing error: unexpected 'age' at line 1, column 10");
    T_EQ_STR(s_run("age foo 1"),
             "ERR: Query filter parsing error: unexpected 'foo' at line 1, column 5");
    T_EQ_STR(s_run("age == nul"),
             "ERR: Query filter parsing error: unexpected 'nul' at line 1, column 8");
    T_EQ_STR(s_run("age == [1,]"),
             "ERR: Query filter parsing error: unexpected ']' at line 1, column 11");
    T_EQ_STR(s_run("age == -"),
             "ERR: Query filter parsing error: unexpected '-' at line 1, column 8");
    T_EQ_STR(s_run("age == \xff"),
             "ERR: Query filter parsing error: unexpected '\\xff' at line 1, column 8");
    T_EQ_STR(s_run("1 == age"),
             "ERR: Query filter parsing error: unexpected '1' at line 1, column 1");
    //  a NULL field list allows any name; a small error buffer truncates
    char error[16];
    gw_minilang_filter_t *f = gw_minilang_filter_parse("zzz == 1", NULL, error, 16);
    T_ASSERT(f);
    gw_minilang_filter_destroy(&f);
    T_ASSERT(!gw_minilang_filter_parse("zzz == ", NULL, error, sizeof error));
    T_EQ_INT(strlen(error), 15);
    T_ASSERT(!gw_minilang_filter_parse(NULL, NULL, NULL, 0));
}

static void
test_hostile(void)
{
    size_t n = 100000;
    char *text = malloc(n + 16);
    T_ASSERT(text);
    char error[256];
    //  10000 '(' and 10000 '!'
    memset(text, '(', 10000);
    strcpy(text + 10000, "age == 1");
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    T_CONTAINS(error, "nesting deeper than 64");
    memset(text, '!', 10000);
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    T_CONTAINS(error, "nesting deeper than 64");
    memset(text, '[', 10000);
    memcpy(text, "age in ", 7);
    text[10000] = '\0';
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    T_CONTAINS(error, "nesting deeper than 64");
    //  64 levels are fine
    memset(text, '(', 64);
    strcpy(text + 64, "age == 30");
    memset(text + 73, ')', 64);
    text[137] = '\0';
    gw_minilang_filter_t *f =
        gw_minilang_filter_parse(text, s_fields, error, sizeof error);
    T_ASSERT(f);
    gw_minilang_filter_destroy(&f);
    //  too long
    memset(text, ' ', n);
    text[n] = '\0';
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    T_CONTAINS(error, "longer than 65536 bytes");
    //  huge and unterminated strings, a long flat chain
    text[0] = '"';
    memset(text + 1, 'x', 60000);
    text[60001] = '\0';
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    strcpy(text, "name like \"");
    memset(text + 11, '%', 60000);
    strcpy(text + 60011, "\"");
    f = gw_minilang_filter_parse(text, s_fields, error, sizeof error);
    T_ASSERT(f);
    s_setup();
    T_ASSERT(gw_minilang_filter_match(f, json_array_get(s_items, 0)));
    gw_minilang_filter_destroy(&f);
    text[60011] = '\0';
    T_ASSERT(!gw_minilang_filter_parse(text, s_fields, error, sizeof error));
    T_CONTAINS(error, "unterminated string at line 1, column 11");
    size_t o = 0;
    while (o + 16 < 65000) {
        memcpy(text + o, "age == 1 | ", 11);
        o += 11;
    }
    strcpy(text + o, "age == 30");
    f = gw_minilang_filter_parse(text, s_fields, error, sizeof error);
    T_ASSERT(f);
    T_ASSERT(gw_minilang_filter_match(f, json_array_get(s_items, 0)));
    gw_minilang_filter_destroy(&f);
    //  a NUL byte ends the text
    T_ASSERT(!gw_minilang_filter_parse("age == \"a\0\"", s_fields, error, sizeof error));
    free(text);
}

//  The names in the order of the items.
static const char *
s_names(json_t *items)
{
    s_out[0] = '\0';
    for (size_t i = 0; i < json_array_size(items); i++) {
        if (i)
            strcat(s_out, " ");
        strcat(s_out, json_string_value(json_object_get(json_array_get(items, i), "n")));
    }
    return s_out;
}

static void
test_order(void)
{
    static const char *const fields[] = {"n", "a", "b", NULL};
    json_t *items = json_loads("[{\"n\":\"p\",\"a\":2,\"b\":\"x\"},"
                               "{\"n\":\"q\",\"a\":1,\"b\":\"y\"},"
                               "{\"n\":\"r\",\"a\":2,\"b\":\"y\"},"
                               "{\"n\":\"s\",\"a\":null,\"b\":\"x\"},"
                               "{\"n\":\"t\",\"a\":1,\"b\":\"x\"},"
                               "{\"n\":\"u\",\"b\":\"z\"}]",
                               0, NULL);
    char error[128];
    T_EQ_INT(gw_minilang_order(items, "a", fields, error, sizeof error), 0);
    T_EQ_STR(s_names(items), "q t p r s u"); //  stable, null last
    T_EQ_INT(gw_minilang_order(items, "-a", fields, error, sizeof error), 0);
    T_EQ_STR(s_names(items), "s u p r q t"); //  null first when descending
    T_EQ_INT(gw_minilang_order(items, "+a, -b", fields, error, sizeof error), 0);
    T_EQ_STR(s_names(items), "q t r p u s");
    T_EQ_INT(gw_minilang_order(items, " - b ,n", fields, error, sizeof error), 0);
    T_EQ_STR(s_names(items), "u q r p s t");
    T_EQ_INT(gw_minilang_order(items, "", fields, error, sizeof error), 0);
    T_EQ_STR(s_names(items), "u q r p s t");
    T_EQ_INT(gw_minilang_order(items, "c", fields, error, sizeof error), -1);
    T_EQ_STR(error,
             "Query ordering parsing error: ('Unknown/unsupported field name', 'c')");
    T_EQ_INT(gw_minilang_order(items, "a,", fields, error, sizeof error), -1);
    T_EQ_STR(error,
             "Query ordering parsing error: unexpected end of input at line 1, column 3");
    T_EQ_INT(gw_minilang_order(items, "--a", fields, error, sizeof error), -1);
    T_EQ_STR(error, "Query ordering parsing error: unexpected '-' at line 1, column 2");
    T_EQ_INT(gw_minilang_order(items, "a b", fields, error, sizeof error), -1);
    T_EQ_STR(error, "Query ordering parsing error: unexpected 'b' at line 1, column 3");
    T_EQ_STR(s_names(items), "u q r p s t");
    //  mixed types: bool, number, string, then null
    json_t *mixed = json_loads("[{\"n\":\"s\",\"a\":\"x\"},{\"n\":\"z\",\"a\":null},"
                               "{\"n\":\"f\",\"a\":1.5},{\"n\":\"b\",\"a\":true},"
                               "{\"n\":\"i\",\"a\":1}]",
                               0, NULL);
    T_EQ_INT(gw_minilang_order(mixed, "a", NULL, error, sizeof error), 0);
    T_EQ_STR(s_names(mixed), "b i f s z");
    json_decref(mixed);
    //  a big one stays stable
    json_t *big = json_array();
    for (int i = 0; i < 1000; i++)
        json_array_append_new(big, json_pack("{s:i,s:i}", "a", i % 7, "b", i));
    T_EQ_INT(gw_minilang_order(big, "-a", fields, error, sizeof error), 0);
    for (size_t i = 1; i < 1000; i++) {
        json_t *x = json_array_get(big, i - 1), *y = json_array_get(big, i);
        json_int_t xa = json_integer_value(json_object_get(x, "a"));
        json_int_t ya = json_integer_value(json_object_get(y, "a"));
        T_ASSERT(xa > ya ||
                 (xa == ya && json_integer_value(json_object_get(x, "b")) <
                                  json_integer_value(json_object_get(y, "b"))));
    }
    json_decref(big);
    json_decref(items);
}

//  What goes to SQL: which top-level conjuncts, as which terms, and whether
//  they are the whole filter. name, email and note are text columns (note
//  as "memo"), age is not; created_at may only order.
static const gw_minilang_column_t s_push_columns[] = {
    {"name", "name", true},           {"email", "email", true}, {"note", "memo", true},
    {"created_at", "created", false}, {NULL, NULL, false},
};

static const struct {
    const char *filter;
    const char *terms; //  the pushed ["and", ...] as compact JSON, or NULL
    bool complete;
} s_push_cases[] = {
    {"name == \"a\"", "[\"and\",[\"=\",\"name\",\"a\"]]", true},
    {"note != \"x\"", "[\"and\",[\"<>\",\"memo\",\"x\"]]", true},
    {"name > \"a\" & name <= \"b\"",
     "[\"and\",[\">\",\"name\",\"a\"],[\"<=\",\"name\",\"b\"]]", true},
    {"name == null", "[\"and\",[\"isnull\",\"name\"]]", true},
    {"name != null", "[\"and\",[\"notnull\",\"name\"]]", true},
    {"name < null", "[\"and\",[\"unknown\"]]", true},
    {"name is null", "[\"and\",[\"isnull\",\"name\"]]", true},
    {"name isnot null", "[\"and\",[\"notnull\",\"name\"]]", true},
    {"name is true", "[\"and\",[\"false\"]]", true},
    {"name isnot false", "[\"and\",[\"true\"]]", true},
    {"name == 1", NULL, false}, //  a mismatch: the matcher's, not SQL's
    {"name == true", NULL, false},
    {"age == 1", NULL, false},            //  no column
    {"created_at == \"x\"", NULL, false}, //  an order-only column
    {"name in [\"a\", 1, null, \"b\"]", "[\"and\",[\"in\",\"name\",[\"a\",\"b\",null]]]",
     true},
    {"name in [1]", "[\"and\",[\"and\",[\"isnull\",\"name\"],[\"unknown\"]]]", true},
    {"name in [null, 2]", "[\"and\",[\"unknown\"]]", true},
    {"name like \"a_%\\%\"", "[\"and\",[\"glob\",\"name\",\"a?*%\"]]", true},
    {"name like \"a\\\\%\"", "[\"and\",[\"glob\",\"name\",\"a\\\\*\"]]", true},
    {"name like \"*?[\"", "[\"and\",[\"glob\",\"name\",\"[*][?][[]\"]]", true},
    {"name ilike \"a_%\\%\\_\\\\x\"",
     "[\"and\",[\"like\",\"name\",\"a_%\\\\%\\\\_\\\\\\\\x\"]]", true},
    {"name contains \"b_\"", "[\"and\",[\"glob\",\"name\",\"*b?*\"]]", true},
    {"name contains 1", NULL, false},
    {"!(name == \"a\")", "[\"and\",[\"not\",[\"=\",\"name\",\"a\"]]]", true},
    //  a & b | c is a & (b | c): a and (b | c) are the conjuncts.
    {"name == \"a\" & email == \"b\" | note == \"c\"",
     "[\"and\",[\"=\",\"name\",\"a\"],[\"or\",[\"=\",\"email\",\"b\"],[\"=\",\"memo\","
     "\"c\"]]]",
     true},
    {"name == \"a\" | email == \"b\" & note == \"c\"",
     "[\"and\",[\"or\",[\"=\",\"name\",\"a\"],[\"and\",[\"=\",\"email\",\"b\"],[\"=\","
     "\"memo\",\"c\"]]]]",
     true},
    {"name == \"a\" | email == \"b\" | note == \"c\"",
     "[\"and\",[\"or\",[\"=\",\"name\",\"a\"],[\"=\",\"email\",\"b\"],[\"=\",\"memo\","
     "\"c\"]]]",
     true},
    //  What stays in memory is a whole conjunct; the others still go.
    {"name == \"a\" & age > 3 & (email == \"b\" & note == \"c\")",
     "[\"and\",[\"=\",\"name\",\"a\"],[\"=\",\"email\",\"b\"],[\"=\",\"memo\",\"c\"]]",
     false},
    {"age > 3 & name == \"a\" | email == \"b\"",
     "[\"and\",[\"or\",[\"=\",\"name\",\"a\"],[\"=\",\"email\",\"b\"]]]", false},
    {"name == \"a\" | age > 3", NULL, false},
    {"(!(age > 3)) & name == \"a\"", "[\"and\",[\"=\",\"name\",\"a\"]]", false},
    {"!(age > 3) & name == \"a\"", NULL, false}, //  ! takes all to its right
};

static void
test_pushdown(void)
{
    static const char *const fields[] = {"name", "email",      "note",
                                         "age",  "created_at", NULL};
    for (size_t i = 0; i < sizeof s_push_cases / sizeof s_push_cases[0]; i++) {
        char error[256];
        gw_minilang_filter_t *f =
            gw_minilang_filter_parse(s_push_cases[i].filter, fields, error, sizeof error);
        T_ASSERT(f);
        if (!f) {
            fprintf(stderr, "# %s: %s\n", s_push_cases[i].filter, error);
            continue;
        }
        bool complete = false;
        json_t *terms = gw_minilang_filter_pushdown(f, s_push_columns, &complete);
        char *text = terms ? json_dumps(terms, JSON_COMPACT) : NULL;
        if (!s_push_cases[i].terms != !text ||
            (text && strcmp(text, s_push_cases[i].terms) != 0) ||
            complete != s_push_cases[i].complete)
            fprintf(stderr, "# %s: got %s complete %d\n", s_push_cases[i].filter,
                    text ? text : "NULL", complete);
        T_EQ_STR(text ? text : "NULL",
                 s_push_cases[i].terms ? s_push_cases[i].terms : "NULL");
        T_EQ_INT(complete, s_push_cases[i].complete);
        free(text);
        json_decref(terms);
        gw_minilang_filter_destroy(&f);
    }
    //  Past the limits, a conjunct stays in memory.
    char text[64 * GW_MINILANG_PUSH_DEPTH_MAX];
    size_t used = 0;
    for (int i = 0; i < GW_MINILANG_PUSH_DEPTH_MAX; i++)
        used += (size_t) snprintf(text + used, sizeof text - used, "name == \"%d\" %c ",
                                  i, i % 2 ? '&' : '|');
    snprintf(text + used, sizeof text - used, "name == \"end\"");
    char error[256];
    gw_minilang_filter_t *f = gw_minilang_filter_parse(text, fields, error, sizeof error);
    T_ASSERT(f);
    bool complete = true;
    json_t *terms = f ? gw_minilang_filter_pushdown(f, s_push_columns, &complete) : NULL;
    T_ASSERT(!terms && !complete);
    json_decref(terms);
    gw_minilang_filter_destroy(&f);
    size_t size = 16 + 6 * (GW_MINILANG_PUSH_VALUES_MAX + 1);
    char *many = malloc(size);
    T_ASSERT(many);
    used = (size_t) snprintf(many, size, "name in [");
    for (int i = 0; i <= GW_MINILANG_PUSH_VALUES_MAX; i++)
        used += (size_t) snprintf(many + used, size - used, "%s\"x\"", i ? "," : "");
    snprintf(many + used, size - used, "] & email == \"y\"");
    f = gw_minilang_filter_parse(many, fields, error, sizeof error);
    T_ASSERT(f);
    terms = f ? gw_minilang_filter_pushdown(f, s_push_columns, &complete) : NULL;
    char *pushed = terms ? json_dumps(terms, JSON_COMPACT) : NULL;
    T_EQ_STR(pushed ? pushed : "NULL", "[\"and\",[\"=\",\"email\",\"y\"]]");
    T_ASSERT(!complete);
    free(pushed);
    json_decref(terms);
    gw_minilang_filter_destroy(&f);
    free(many);
    //  Orders: every key a column, or sorted in memory, or an error.
    char order[64];
    T_EQ_INT(gw_minilang_order_pushdown(" - name, created_at", fields, s_push_columns,
                                        order, sizeof order, error, sizeof error),
             0);
    T_EQ_STR(order, "-name,created");
    T_EQ_INT(gw_minilang_order_pushdown("", fields, s_push_columns, order, sizeof order,
                                        error, sizeof error),
             0);
    T_EQ_STR(order, "");
    T_EQ_INT(gw_minilang_order_pushdown("name,age", fields, s_push_columns, order,
                                        sizeof order, error, sizeof error),
             1);
    T_EQ_INT(gw_minilang_order_pushdown("name,nope", fields, s_push_columns, order,
                                        sizeof order, error, sizeof error),
             -1);
    T_EQ_STR(error,
             "Query ordering parsing error: ('Unknown/unsupported field name', 'nope')");
    T_EQ_INT(gw_minilang_order_pushdown("name,email,name,email", fields, s_push_columns,
                                        order, 8, error, sizeof error),
             1); //  longer than out
}

int
main(void)
{
    T_RUN(test_comparisons);
    T_RUN(test_like);
    T_RUN(test_in_and_null);
    T_RUN(test_grouping);
    T_RUN(test_escapes);
    T_RUN(test_errors);
    T_RUN(test_hostile);
    T_RUN(test_order);
    T_RUN(test_pushdown);
    json_decref(s_items);
    return T_DONE();
}
