/*  =========================================================================
    gw_graphql_private - what the GraphQL parser's files share

    The parser of gw_graphql.h is four files: gw_graphql_lex.c (errors,
    UTF-8, the arena, vectors and hash tables, the lexer), gw_graphql.c
    (the parser and documents), gw_graphql_check.c (validation and the
    inlining of fragments) and gw_graphql_value.c (variables and values as
    JSON). This header holds their common types and the functions one
    calls in another; nothing outside them includes it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_GRAPHQL_PRIVATE_H_INCLUDED
#define GW_GRAPHQL_PRIVATE_H_INCLUDED

#include "gw_graphql.h"

//  Bytes in an arena chunk; larger requests get a chunk of their own size.
#define GW_GRAPHQL_CHUNK_SIZE (64 * 1024)
//  Code points of a token or value quoted back in an error message.
#define GW_GRAPHQL_SHOWN_MAX 40
//  Buffer for such a quotation: GW_GRAPHQL_SHOWN_MAX code points, "..." and NUL.
#define GW_GRAPHQL_SHOWN_SIZE (GW_GRAPHQL_SHOWN_MAX * 4 + 8)
//  First number of slots of a hash table; it doubles at half load.
#define GW_GRAPHQL_MAP_MIN 16
//  Longest variable path in a coercion message: "ids[3][0]".
#define GW_GRAPHQL_PATH_MAX 96
//  Bytes of string comparison or hashing counted as one step of work.
#define GW_GRAPHQL_WORK_BYTES 16
//  2^53: doubles this large or larger are all integers.
#define GW_GRAPHQL_EXACT 9007199254740992.0

typedef struct gw_graphql_chunk {
    struct gw_graphql_chunk *next;
    size_t size;
    size_t used;
    max_align_t data[];
} gw_graphql_chunk_t;

typedef enum {
    T_EOF,
    T_BANG,
    T_DOLLAR,
    T_AMP,
    T_PAREN_L,
    T_PAREN_R,
    T_SPREAD,
    T_COLON,
    T_EQUALS,
    T_AT,
    T_BRACKET_L,
    T_BRACKET_R,
    T_BRACE_L,
    T_PIPE,
    T_BRACE_R,
    T_NAME,
    T_INT,
    T_FLOAT,
    T_STRING,
    T_BLOCK_STRING
} gw_graphql_token_kind_t;

//  The one-character punctuators in the order of their kinds from T_BANG;
//  "_" holds the place of T_SPREAD ("...").
#define GW_GRAPHQL_PUNCTUATORS "!$&()_:=@[]{|}"

typedef struct {
    gw_graphql_token_kind_t kind;
    size_t start; //  byte offsets in the source
    size_t end;
    int line;
    int column;
    char *value; //  STRING, BLOCK_STRING: decoded, NUL-terminated
    size_t length;
} gw_graphql_token_t;

//  A vector in the arena: doubling leaves the old copy behind, which at
//  most doubles what the lists cost.
typedef struct {
    void *data;
    size_t count;
    size_t capacity;
} gw_graphql_vec_t;

//  Open-addressing hash table from a string to a pointer.
typedef struct {
    const char **keys;
    void **values;
    size_t capacity;
    size_t count;
} gw_graphql_map_t;

//  A fragment spread or a variable read, as noted for validation.
typedef struct {
    const char *name;
    int line;
    int column;
} gw_graphql_ref_t;

//  What a definition reads and spreads, lexically (not through spreads).
typedef struct {
    gw_graphql_vec_t usages;  //  of gw_graphql_ref_t: variables read
    gw_graphql_vec_t spreads; //  of gw_graphql_ref_t: fragments spread
} gw_graphql_refs_t;

typedef enum { S_FIELD, S_SPREAD, S_INLINE } gw_graphql_item_kind_t;

typedef struct gw_graphql_psel gw_graphql_psel_t;

//  One selection as written: a field, a fragment spread or an inline
//  fragment.
typedef struct {
    gw_graphql_item_kind_t kind;
    const char *alias;
    const char *name; //  field name; fragment name; type condition or NULL
    const gw_gql_argument_t *arguments;
    size_t argument_count;
    const gw_gql_directive_t *directives; //  @skip/@include, any condition
    size_t directive_count;
    const gw_graphql_psel_t *selection; //  NULL for a leaf field and a spread
    int line;
    int column;
} gw_graphql_item_t;

//  A selection set as written.
struct gw_graphql_psel {
    const gw_graphql_item_t *items;
    size_t count;
};

typedef struct {
    const char *name;
    const char *type_condition;
    const gw_graphql_psel_t *selection;
    gw_graphql_refs_t refs;
    int line;
    int column;
    int color;          //  cycle search: 0 new, 1 on the stack, 2 done
    size_t stack_index; //  its frame while color is 1
    size_t stamp;       //  the last operation whose reach included it
    bool used;
} gw_graphql_fragment_t;

//  The public operation comes first, so that a gw_gql_operation_t from
//  gw_gql_doc_operation can be cast back.
typedef struct {
    gw_gql_operation_t pub;
    const gw_gql_variable_t **sorted; //  variables by name, for bsearch
    const gw_graphql_psel_t *parsed;
    gw_graphql_refs_t refs;
} gw_graphql_operation_t;

struct gw_gql_doc {
    gw_graphql_chunk_t *chunks;
    gw_graphql_operation_t **operations;
    size_t operation_count;
};

typedef struct {
    gw_gql_doc_t *doc;
    const unsigned char *src;
    size_t size;
    size_t pos; //  where the lexer continues
    size_t loc_offset;
    int loc_line;
    int loc_column;
    gw_graphql_token_t tok;
    size_t tokens;
    int depth;
    size_t work;
    size_t fields;
    gw_graphql_refs_t *refs;         //  of the definition being parsed
    gw_graphql_vec_t operations;     //  of gw_graphql_operation_t *
    gw_graphql_vec_t fragments;      //  of gw_graphql_fragment_t *, in document order
    gw_graphql_fragment_t **by_name; //  the same, sorted by name, after parsing
    gw_graphql_fragment_t **scratch; //  a stack as long as the fragment list
    gw_gql_error_t *err;
    bool failed;
} gw_graphql_parser_t;

//  ---------------------------------------------------------------------------

//  ---------------------------------------------------------------------------
//  gw_graphql_lex.c

//  A quotation of text (len bytes) for a message: at most
//  GW_GRAPHQL_SHOWN_MAX code points, "..." when cut; out has
//  GW_GRAPHQL_SHOWN_SIZE bytes. Returns out.
const char *gw_graphql_excerpt(const char *text, size_t len, char *out);
//  Sets err (may be NULL) to a message at line and column (0: none).
void gw_graphql_error_set(gw_gql_error_t *err, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void gw_graphql_error_clear(gw_gql_error_t *err);
//  Records the first error of a parse; later ones are consequences.
void gw_graphql_fail(gw_graphql_parser_t *p, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
//  Counts steps of validation work; -1 (and the parse failed) past
//  GW_GQL_MAX_WORK.
int gw_graphql_work(gw_graphql_parser_t *p, size_t steps);
//  The steps a string of len bytes costs to compare or hash.
size_t gw_graphql_cost(size_t len);
//  From the document's arena; NULL (and the parse failed) when out of memory.
void *gw_graphql_alloc(gw_graphql_parser_t *p, size_t size);
char *gw_graphql_strndup(gw_graphql_parser_t *p, const void *text, size_t len);
//  A new zeroed item of size at the end of vec; NULL when out of memory.
void *gw_graphql_vec_push(gw_graphql_parser_t *p, gw_graphql_vec_t *vec, size_t size);
//  The hash table: a value or NULL; put 0 or -1 (out of memory, or work).
void *
gw_graphql_map_get(gw_graphql_parser_t *p, const gw_graphql_map_t *map, const char *key);
int gw_graphql_map_put(gw_graphql_parser_t *p,
                       gw_graphql_map_t *map,
                       const char *key,
                       void *value);
//  Reads the next token into p->tok. 0, or -1 when the parse failed.
int gw_graphql_next(gw_graphql_parser_t *p);

//  ---------------------------------------------------------------------------
//  gw_graphql.c

//  Whether (line, column) comes after (other_line, other_column).
bool gw_graphql_is_after(int line, int column, int other_line, int other_column);

//  ---------------------------------------------------------------------------
//  gw_graphql_check.c

//  The schema-free validation of a parsed document. 0 or -1.
int gw_graphql_validate(gw_graphql_parser_t *p);
//  The selection of an operation with its fragments inlined (CollectFields);
//  NULL when the parse failed.
const gw_gql_selection_t *gw_graphql_inline(gw_graphql_parser_t *p,
                                            const gw_graphql_psel_t *root);
//  An operation's variable by name (bsearch on the sorted list), counting
//  comparisons in steps when not NULL; NULL when it has none of that name.
const gw_gql_variable_t *gw_graphql_find_variable(const gw_graphql_operation_t *op,
                                                  const char *name,
                                                  size_t *steps);

#endif
