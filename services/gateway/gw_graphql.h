/*  =========================================================================
    gw_graphql - GraphQL executable documents for POST /admin/gql

    A parser for the executable part of GraphQL (October 2021 spec):
    operations, variable definitions, selection sets, arguments, values,
    fragments and the @skip/@include directives. Parsing also does the
    schema-free validation (unique names, known fragments, no fragment
    cycles, no unused fragments, no undefined variables; unused variables
    are accepted) and inlines the fragments of every operation, so that an
    executor walks plain field arrays: fields with the same response key
    are merged, as the spec's CollectFields does.

    Everything a document holds lives in one arena owned by the document:
    pointers into it are borrowed and valid until gw_gql_doc_destroy. Input
    is bounded by the limits below; any input gives a document or an error
    with a line and column, in the words graphql-js uses, never a crash.

    Directives: only @skip(if:) and @include(if:) are accepted, on fields,
    fragment spreads and inline fragments; any other directive, or one on an
    operation, variable or fragment definition, is an error. A condition with
    a literal Boolean is applied while inlining; one that reads a variable
    stays on each field it guards (a spread's conditions are copied onto
    the fields it brings in) for gw_gql_field_included to evaluate.

    There is no schema here: type conditions of fragments are recorded but
    not checked (every fragment's fields are taken), argument values are not
    checked against argument types, and variable values are coerced only for
    the built-in scalars (gw_gql_operation_coerce_variables).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_GRAPHQL_H_INCLUDED
#define GW_GRAPHQL_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

//  Longest document accepted, in bytes.
#define GW_GQL_MAX_INPUT (256 * 1024)
//  Deepest nesting: while parsing, of selection sets, list and object
//  values and list types, counted together; once fragments are inlined, of
//  fields, and of spreads and inline fragments within one selection set.
#define GW_GQL_MAX_DEPTH 32
//  Most tokens in a document (comments and commas are not tokens).
#define GW_GQL_MAX_TOKENS 100000
//  Most fields in all operations once fragments are inlined. A document
//  without fragments never reaches it: each field costs a token.
#define GW_GQL_MAX_FIELDS 100000
//  Most validation steps (hash probes, fragment visits, comparisons) one
//  document may cost; it bounds the quadratic corners of validation.
#define GW_GQL_MAX_WORK 4000000
//  Size of an error message, with its NUL.
#define GW_GQL_ERROR_MAX 256

//  Why a call failed. line and column are 1-based and count characters
//  (UTF-8 code points); both are 0 when the error has no place in the text.
typedef struct {
    char message[GW_GQL_ERROR_MAX];
    int line;
    int column;
} gw_gql_error_t;

typedef enum {
    GW_GQL_VARIABLE, //  $name: text is the name without "$"
    GW_GQL_INT,      //  integer holds it; text is the source
    GW_GQL_FLOAT,    //  number holds it; text is the source
    GW_GQL_STRING,   //  text/length: decoded UTF-8, may contain NUL bytes
    GW_GQL_BOOLEAN,  //  boolean
    GW_GQL_NULL,
    GW_GQL_ENUM,  //  text is the name
    GW_GQL_LIST,  //  items, count
    GW_GQL_OBJECT //  fields, count
} gw_gql_value_kind_t;

typedef struct gw_gql_value gw_gql_value_t;
typedef struct gw_gql_argument gw_gql_argument_t;
typedef struct gw_gql_field gw_gql_field_t;

struct gw_gql_value {
    gw_gql_value_kind_t kind;
    const char *text; //  NUL-terminated; NULL for BOOLEAN, NULL, LIST, OBJECT
    size_t length;    //  bytes in text
    int64_t integer;
    double number;
    bool boolean;
    const gw_gql_value_t *items;     //  LIST items
    const gw_gql_argument_t *fields; //  OBJECT fields, in document order
    size_t count;                    //  of items or fields
    int line;
    int column;
};

//  An argument of a field or directive, or a field of an object value.
//  Names are unique within their list.
struct gw_gql_argument {
    const char *name;
    gw_gql_value_t value;
    int line;
    int column;
};

//  A named type, or a list of item; either may be non-null ("!").
typedef struct gw_gql_type gw_gql_type_t;
struct gw_gql_type {
    const char *name;          //  NULL for a list
    const gw_gql_type_t *item; //  list item type; NULL for a named type
    bool non_null;
    const char *text; //  normalised, for messages: "[String!]!"
};

typedef struct {
    const char *name; //  without "$"
    const gw_gql_type_t *type;
    const gw_gql_value_t *default_value; //  constant; NULL when none
    int line;
    int column;
} gw_gql_variable_t;

//  @skip or @include whose "if" reads a variable.
typedef struct {
    const char *name; //  "skip" or "include"
    const gw_gql_value_t *condition;
    int line;
    int column;
} gw_gql_directive_t;

//  The fields selected at one level, fragments inlined, one per response
//  key, in document order.
typedef struct {
    const gw_gql_field_t *fields;
    size_t count;
} gw_gql_selection_t;

struct gw_gql_field {
    const char *alias; //  NULL when none
    const char *name;
    const char *key; //  the response key: alias, else name
    const gw_gql_argument_t *arguments;
    size_t argument_count;
    //  Conditions that read variables; usually none. Rare case: fields with
    //  one key but different conditions stay separate entries, in order.
    const gw_gql_directive_t *directives;
    size_t directive_count;
    const gw_gql_selection_t *selection; //  NULL for a leaf field
    int line;
    int column;
};

typedef struct {
    const char *kind; //  "query", "mutation" or "subscription"
    const char *name; //  NULL when anonymous
    const gw_gql_variable_t *variables;
    size_t variable_count;
    gw_gql_selection_t selection; //  the root fields
    int line;
    int column;
} gw_gql_operation_t;

typedef struct gw_gql_doc gw_gql_doc_t;

//  Parses and validates size bytes of text (no NUL needed). Returns the
//  document, or NULL with err filled (err may be NULL).
gw_gql_doc_t *gw_gql_parse(const char *text, size_t size, gw_gql_error_t *err);

//  Frees the document and everything borrowed from it. Safe on NULL.
void gw_gql_doc_destroy(gw_gql_doc_t **self_p);

//  The operation to run: the one named name, or the only one when name is
//  NULL or empty. NULL with err when unknown or ambiguous. Borrowed.
const gw_gql_operation_t *
gw_gql_doc_operation(const gw_gql_doc_t *self, const char *name, gw_gql_error_t *err);

//  The variable values to execute op with: variables (a JSON object, or
//  NULL for none) checked against op's definitions, defaults filled in,
//  undeclared values dropped. Int (32-bit), Float, String, Boolean, ID and
//  JSONString (a string holding JSON) are checked; an integer becomes a
//  real for Float and a string for ID; other named types pass unchanged; a
//  single value becomes a one-item list where a list is declared. Caller
//  owns return value; NULL with err on a mismatch or a missing required
//  variable ("Variable "$limit" of required type "Int!" was not provided.").
json_t *gw_gql_operation_coerce_variables(const gw_gql_operation_t *op,
                                          json_t *variables,
                                          gw_gql_error_t *err);

//  value as JSON: enums become strings, objects objects. A variable is read
//  from variables (coerced or raw; may be NULL), else from its default; a
//  missing nullable variable is null at the top and in lists and leaves its
//  field out of an object; a missing required one is an error. op is the
//  operation value belongs to, as returned by gw_gql_doc_operation. Caller
//  owns return value (it may share parts with variables: do not modify).
json_t *gw_gql_value_json(const gw_gql_value_t *value,
                          const gw_gql_operation_t *op,
                          json_t *variables,
                          gw_gql_error_t *err);

//  The argument name of field as gw_gql_value_json gives it. NULL with an
//  empty err->message when the field has no such argument, or when it is a
//  variable with no value and no default (the spec's "not provided").
json_t *gw_gql_field_argument(const gw_gql_field_t *field,
                              const char *name,
                              const gw_gql_operation_t *op,
                              json_t *variables,
                              gw_gql_error_t *err);

//  Whether field's @skip/@include conditions let it run with these
//  variables: 1 yes, 0 no, -1 with err when a condition is not a Boolean.
int gw_gql_field_included(const gw_gql_field_t *field,
                          const gw_gql_operation_t *op,
                          json_t *variables,
                          gw_gql_error_t *err);

#endif
