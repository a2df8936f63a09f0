/*  =========================================================================
    gw_minilang_private - what the minilang's two files share

    gw_minilang.c reads the languages (lexer, filter parser); gw_minilang_
    eval.c says what they mean (matching, ordering, and the part of a filter
    or an order SQL can answer). This header holds their common types and
    the lexer functions the order parser uses; nothing else includes it.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MINILANG_PRIVATE_H_INCLUDED
#define GW_MINILANG_PRIVATE_H_INCLUDED

#include "gw_minilang.h"

//  Three-valued logic, as SQL's WHERE.
typedef enum {
    GW_MINILANG_FALSE = 0,
    GW_MINILANG_TRUE = 1,
    GW_MINILANG_UNKNOWN = 2
} gw_minilang_tri_t;

typedef enum {
    GW_MINILANG_OP_EQ,
    GW_MINILANG_OP_NE,
    GW_MINILANG_OP_GT,
    GW_MINILANG_OP_GE,
    GW_MINILANG_OP_LT,
    GW_MINILANG_OP_LE,
    GW_MINILANG_OP_CONTAINS,
    GW_MINILANG_OP_IN,
    GW_MINILANG_OP_IS,
    GW_MINILANG_OP_ISNOT,
    GW_MINILANG_OP_LIKE,
    GW_MINILANG_OP_ILIKE
} gw_minilang_op_t;

typedef enum {
    GW_MINILANG_V_STRING,
    GW_MINILANG_V_INT,
    GW_MINILANG_V_REAL,
    GW_MINILANG_V_TRUE,
    GW_MINILANG_V_FALSE,
    GW_MINILANG_V_NULL,
    GW_MINILANG_V_LIST
} gw_minilang_vtype_t;

typedef struct gw_minilang_value {
    gw_minilang_vtype_t type;
    char *string; //  GW_MINILANG_V_STRING: decoded bytes, NUL-terminated
    size_t length;
    json_int_t integer;
    double real;
    struct gw_minilang_value *items; //  GW_MINILANG_V_LIST
    size_t count;
} gw_minilang_value_t;

typedef enum {
    GW_MINILANG_N_CMP,
    GW_MINILANG_N_NOT,
    GW_MINILANG_N_CHAIN
} gw_minilang_ntype_t;

typedef struct gw_minilang_node {
    gw_minilang_ntype_t type;
    //  GW_MINILANG_N_CMP
    char *field;
    gw_minilang_op_t op;
    gw_minilang_value_t value;
    char *pattern; //  contains on a string: "%value%"
    size_t pattern_length;
    //  GW_MINILANG_N_NOT
    struct gw_minilang_node *child;
    //  GW_MINILANG_N_CHAIN: count nodes, count - 1 operators ('&' or '|'), right-grouped
    struct gw_minilang_node **nodes;
    char *ops;
    size_t count;
} gw_minilang_node_t;

struct _gw_minilang_filter_t {
    gw_minilang_node_t *root;
};

typedef enum {
    GW_MINILANG_T_END,
    GW_MINILANG_T_IDENT,
    GW_MINILANG_T_STRING,
    GW_MINILANG_T_NUMBER,
    GW_MINILANG_T_LPAREN,
    GW_MINILANG_T_RPAREN,
    GW_MINILANG_T_LBRACK,
    GW_MINILANG_T_RBRACK,
    GW_MINILANG_T_COMMA,
    GW_MINILANG_T_AMP,
    GW_MINILANG_T_PIPE,
    GW_MINILANG_T_BANG,
    GW_MINILANG_T_PLUS,
    GW_MINILANG_T_MINUS,
    GW_MINILANG_T_OP, //  == != > >= < <=
    GW_MINILANG_T_BAD
} gw_minilang_ttype_t;

typedef struct {
    gw_minilang_ttype_t type;
    size_t start, length; //  in the text
    size_t line, column;  //  1-based
} gw_minilang_token_t;

typedef struct {
    const char *text;
    size_t size;
    size_t pos, line, line_start;
    const char *prefix; //  "Query filter parsing error" or "... ordering ..."
    const char *const *fields;
    bool numbers;              //  + and - start numbers (filter), or are signs (order)
    gw_minilang_token_t token; //  the current one
    int depth;
    char *error;
    size_t error_size;
    bool failed;
} gw_minilang_parser_t;

//  Records the first error (prefix, line and column of the current token).
void gw_minilang_fail(gw_minilang_parser_t *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

//  Whether name is one of the fields the caller allows (all when NULL).
bool gw_minilang_field_allowed(gw_minilang_parser_t *p, const char *name);

//  Reads the next token into p->token.
void gw_minilang_next(gw_minilang_parser_t *p);

//  Frees a filter node and everything under it.
void gw_minilang_node_free(gw_minilang_node_t *node);

//  Starts a parser over text; false (error filled) when text is too long.
bool gw_minilang_parser_init(gw_minilang_parser_t *p,
                             const char *text,
                             const char *const *fields,
                             const char *prefix,
                             char *error,
                             size_t error_size);

//  Fails on the current token, naming it.
void gw_minilang_unexpected(gw_minilang_parser_t *p);

#endif
