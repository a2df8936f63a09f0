/*  =========================================================================
    gw_graphql_check - GraphQL validation and fragment inlining

    While parsing, each operation and fragment notes the variables it reads
    and the fragments it spreads. Validation works from these notes, not by
    walking trees again: known fragments, an iterative search for cycles,
    then for every operation the fragments it reaches, whose variables the
    operation must define. Inlining follows the spec's CollectFields: per
    selection set, fields are grouped by response key in a hash table, and
    each group's sub-selections are collected together one level down.
    Recursion is bounded by GW_GQL_MAX_DEPTH everywhere; a work counter
    bounds hash probes, fragment visits and comparisons, so no input makes
    validation quadratic past GW_GQL_MAX_WORK.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "gw_graphql_private.h"

//  ---------------------------------------------------------------------------
//  Validation

static int
s_compare_fragments(const void *a, const void *b)
{
    const gw_graphql_fragment_t *x = *(const gw_graphql_fragment_t *const *) a;
    const gw_graphql_fragment_t *y = *(const gw_graphql_fragment_t *const *) b;
    return strcmp(x->name, y->name);
}

static gw_graphql_fragment_t *
s_find_fragment(gw_graphql_parser_t *p, const char *name)
{
    size_t low = 0, high = p->fragments.count, cost = gw_graphql_cost(strlen(name));
    while (low < high) {
        if (gw_graphql_work(p, cost) != 0)
            return NULL;
        size_t mid = low + (high - low) / 2;
        int order = strcmp(name, p->by_name[mid]->name);
        if (order == 0)
            return p->by_name[mid];
        if (order < 0)
            high = mid;
        else
            low = mid + 1;
    }
    return NULL;
}

//  The definition of variable name in op, or NULL; *steps counts the
//  comparisons (may be NULL).
const gw_gql_variable_t *
gw_graphql_find_variable(const gw_graphql_operation_t *op,
                         const char *name,
                         size_t *steps)
{
    size_t low = 0, high = op->pub.variable_count;
    while (low < high) {
        if (steps)
            (*steps)++;
        size_t mid = low + (high - low) / 2;
        int order = strcmp(name, op->sorted[mid]->name);
        if (order == 0)
            return op->sorted[mid];
        if (order < 0)
            high = mid;
        else
            low = mid + 1;
    }
    return NULL;
}

static int
s_check_names(gw_graphql_parser_t *p)
{
    gw_graphql_operation_t **ops = p->operations.data;
    size_t count = p->operations.count;
    for (size_t i = 0; i < count && count > 1; i++)
        if (!ops[i]->pub.name) {
            gw_graphql_fail(
                p, ops[i]->pub.line, ops[i]->pub.column,
                "This anonymous operation must be the only defined operation.");
            return -1;
        }
    //  With more than one operation, all have names.
    gw_graphql_map_t seen = {0};
    for (size_t i = 0; i < count && count > 1; i++) {
        const char *name = ops[i]->pub.name;
        if (gw_graphql_map_get(p, &seen, name)) {
            gw_graphql_fail(p, ops[i]->pub.line, ops[i]->pub.column,
                            "There can be only one operation named \"%s\".", name);
            return -1;
        }
        if (p->failed || gw_graphql_map_put(p, &seen, name, ops[i]) != 0)
            return -1;
    }
    size_t fragments = p->fragments.count;
    p->by_name = gw_graphql_alloc(p, (fragments + 1) * sizeof *p->by_name);
    p->scratch = gw_graphql_alloc(p, (fragments + 1) * sizeof *p->scratch);
    if (!p->by_name || !p->scratch)
        return -1;
    if (fragments) {
        memcpy(p->by_name, p->fragments.data, fragments * sizeof *p->by_name);
        qsort(p->by_name, fragments, sizeof *p->by_name, s_compare_fragments);
    }
    for (size_t i = 1; i < fragments; i++)
        if (strcmp(p->by_name[i - 1]->name, p->by_name[i]->name) == 0) {
            const gw_graphql_fragment_t *later = p->by_name[i];
            if (gw_graphql_is_after(p->by_name[i - 1]->line, p->by_name[i - 1]->column,
                                    later->line, later->column))
                later = p->by_name[i - 1];
            gw_graphql_fail(p, later->line, later->column,
                            "There can be only one fragment named \"%s\".", later->name);
            return -1;
        }
    return 0;
}

//  Every spread names a fragment of the document.
static int
s_check_known(gw_graphql_parser_t *p, const gw_graphql_refs_t *refs)
{
    const gw_graphql_ref_t *spreads = refs->spreads.data;
    for (size_t i = 0; i < refs->spreads.count; i++)
        if (!s_find_fragment(p, spreads[i].name)) {
            if (!p->failed)
                gw_graphql_fail(p, spreads[i].line, spreads[i].column,
                                "Unknown fragment \"%s\".", spreads[i].name);
            return -1;
        }
    return 0;
}

static void
s_append(char *buffer, size_t size, const char *text)
{
    size_t len = strlen(buffer);
    if (len + 1 < size)
        snprintf(buffer + len, size - len, "%s", text);
}

//  Depth-first search over the spread graph with a stack of our own (a
//  chain of fragments may be as long as the document).
static int
s_check_cycles(gw_graphql_parser_t *p)
{
    typedef struct {
        gw_graphql_fragment_t *fragment;
        size_t next;
    } s_frame_t;
    size_t count = p->fragments.count;
    gw_graphql_fragment_t **fragments = p->fragments.data;
    s_frame_t *frames = gw_graphql_alloc(p, (count + 1) * sizeof *frames);
    if (!frames)
        return -1;
    for (size_t f = 0; f < count; f++) {
        if (fragments[f]->color != 0)
            continue;
        size_t top = 0;
        frames[0].fragment = fragments[f];
        frames[0].next = 0;
        fragments[f]->color = 1;
        fragments[f]->stack_index = 0;
        while (true) {
            s_frame_t *frame = &frames[top];
            const gw_graphql_refs_t *refs = &frame->fragment->refs;
            if (frame->next == refs->spreads.count) {
                frame->fragment->color = 2;
                if (top == 0)
                    break;
                top--;
                continue;
            }
            const gw_graphql_ref_t *ref =
                (const gw_graphql_ref_t *) refs->spreads.data + frame->next++;
            gw_graphql_fragment_t *target = s_find_fragment(p, ref->name);
            if (!target)
                return -1;
            if (target->color == 1) {
                char message[GW_GQL_ERROR_MAX];
                snprintf(message, sizeof message,
                         "Cannot spread fragment \"%s\" within itself", target->name);
                for (size_t k = target->stack_index + 1; k <= top; k++) {
                    const char *name = frames[k].fragment->name;
                    //  Room for the name, its quotes and separator, and ", ...".
                    if (strlen(message) + strlen(name) + 12 >= sizeof message) {
                        s_append(message, sizeof message, ", ...");
                        break;
                    }
                    s_append(message, sizeof message,
                             k == target->stack_index + 1 ? " via \"" : ", \"");
                    s_append(message, sizeof message, name);
                    s_append(message, sizeof message, "\"");
                }
                s_append(message, sizeof message, ".");
                gw_graphql_fail(p, ref->line, ref->column, "%s", message);
                return -1;
            }
            if (target->color == 0) {
                target->color = 1;
                target->stack_index = ++top;
                frames[top].fragment = target;
                frames[top].next = 0;
            }
        }
    }
    return 0;
}

static int
s_check_usages(gw_graphql_parser_t *p,
               const gw_graphql_operation_t *op,
               const gw_graphql_refs_t *refs)
{
    const gw_graphql_ref_t *usages = refs->usages.data;
    for (size_t i = 0; i < refs->usages.count; i++) {
        size_t steps = 1;
        const gw_gql_variable_t *variable =
            gw_graphql_find_variable(op, usages[i].name, &steps);
        if (gw_graphql_work(p, steps * gw_graphql_cost(strlen(usages[i].name))) != 0)
            return -1;
        if (!variable) {
            if (op->pub.name)
                gw_graphql_fail(p, usages[i].line, usages[i].column,
                                "Variable \"$%s\" is not defined by operation \"%s\".",
                                usages[i].name, op->pub.name);
            else
                gw_graphql_fail(p, usages[i].line, usages[i].column,
                                "Variable \"$%s\" is not defined.", usages[i].name);
            return -1;
        }
    }
    return 0;
}

//  The variables read by op and by every fragment it reaches are defined
//  by op; those fragments are used.
static int
s_check_variables(gw_graphql_parser_t *p, const gw_graphql_operation_t *op, size_t stamp)
{
    if (s_check_usages(p, op, &op->refs) != 0)
        return -1;
    size_t top = 0;
    const gw_graphql_refs_t *refs = &op->refs;
    while (true) {
        const gw_graphql_ref_t *spreads = refs->spreads.data;
        for (size_t i = 0; i < refs->spreads.count; i++) {
            gw_graphql_fragment_t *target = s_find_fragment(p, spreads[i].name);
            if (!target)
                return -1;
            if (target->stamp != stamp) {
                target->stamp = stamp;
                p->scratch[top++] = target;
            }
        }
        if (top == 0)
            return 0;
        gw_graphql_fragment_t *fragment = p->scratch[--top];
        fragment->used = true;
        if (s_check_usages(p, op, &fragment->refs) != 0)
            return -1;
        refs = &fragment->refs;
    }
}

int
gw_graphql_validate(gw_graphql_parser_t *p)
{
    if (s_check_names(p) != 0)
        return -1;
    gw_graphql_operation_t **ops = p->operations.data;
    gw_graphql_fragment_t **fragments = p->fragments.data;
    for (size_t i = 0; i < p->operations.count; i++)
        if (s_check_known(p, &ops[i]->refs) != 0)
            return -1;
    for (size_t i = 0; i < p->fragments.count; i++)
        if (s_check_known(p, &fragments[i]->refs) != 0)
            return -1;
    if (s_check_cycles(p) != 0)
        return -1;
    for (size_t i = 0; i < p->operations.count; i++)
        if (s_check_variables(p, ops[i], i + 1) != 0)
            return -1;
    for (size_t i = 0; i < p->fragments.count; i++)
        if (!fragments[i]->used) {
            gw_graphql_fail(p, fragments[i]->line, fragments[i]->column,
                            "Fragment \"%s\" is never used.", fragments[i]->name);
            return -1;
        }
    return 0;
}

//  ---------------------------------------------------------------------------
//  Inlining: the spec's CollectFields, one selection set at a time

//  A condition that reads a variable, inherited from enclosing fragments.
typedef struct s_cond {
    const gw_gql_directive_t *directive;
    const struct s_cond *next;
} s_cond_t;

typedef struct s_occurrence {
    const gw_graphql_item_t *item;
    struct s_occurrence *next;
} s_occurrence_t;

//  Fields of one response key and the same conditions, merged into one.
typedef struct s_group {
    const gw_graphql_item_t *first;
    const s_cond_t *conds;
    size_t cond_count;
    s_occurrence_t *occurrences;
    s_occurrence_t *last;
    struct s_group *next;     //  in document order
    struct s_group *same_key; //  another group of the key, other conditions
} s_group_t;

typedef struct {
    gw_graphql_map_t keys; //  response key -> first s_group_t of the key
    s_group_t *head;
    s_group_t *tail;
    size_t count;
} s_collect_t;

static bool
s_value_equal(gw_graphql_parser_t *p, const gw_gql_value_t *a, const gw_gql_value_t *b);

static bool
s_arguments_equal(gw_graphql_parser_t *p,
                  const gw_gql_argument_t *a,
                  size_t a_count,
                  const gw_gql_argument_t *b,
                  size_t b_count)
{
    if (a_count != b_count)
        return false;
    if (a == b)
        return true;
    //  Usually in the same order; otherwise look each one up.
    for (size_t i = 0; i < a_count; i++) {
        const gw_gql_argument_t *match = NULL;
        size_t cost = gw_graphql_cost(strlen(a[i].name));
        for (size_t k = 0; !match && k < b_count; k++) {
            size_t j = (i + k) % b_count;
            if (gw_graphql_work(p, cost) != 0)
                return false;
            if (a[i].name == b[j].name || strcmp(a[i].name, b[j].name) == 0)
                match = &b[j];
        }
        if (!match || !s_value_equal(p, &a[i].value, &match->value))
            return false;
    }
    return true;
}

static bool
s_value_equal(gw_graphql_parser_t *p, const gw_gql_value_t *a, const gw_gql_value_t *b)
{
    if (a == b)
        return true;
    if (gw_graphql_work(p, gw_graphql_cost(a->length)) != 0 || a->kind != b->kind)
        return false;
    switch (a->kind) {
        case GW_GQL_INT:
            return a->integer == b->integer;
        case GW_GQL_FLOAT:
            return a->number == b->number;
        case GW_GQL_BOOLEAN:
            return a->boolean == b->boolean;
        case GW_GQL_NULL:
            return true;
        case GW_GQL_LIST:
            if (a->count != b->count)
                return false;
            for (size_t i = 0; i < a->count; i++)
                if (!s_value_equal(p, &a->items[i], &b->items[i]))
                    return false;
            return true;
        case GW_GQL_OBJECT:
            return s_arguments_equal(p, a->fields, a->count, b->fields, b->count);
        default:
            return a->length == b->length && memcmp(a->text, b->text, a->length) == 0;
    }
}

static bool
s_conds_equal(gw_graphql_parser_t *p, const s_cond_t *a, const s_cond_t *b)
{
    for (; a && b; a = a->next, b = b->next)
        if (strcmp(a->directive->name, b->directive->name) != 0 ||
            !s_value_equal(p, a->directive->condition, b->directive->condition))
            return false;
    return !a && !b;
}

static int
s_collect_field(gw_graphql_parser_t *p,
                s_collect_t *c,
                const gw_graphql_item_t *item,
                const s_cond_t *conds)
{
    const char *key = item->alias ? item->alias : item->name;
    s_group_t *head = gw_graphql_map_get(p, &c->keys, key), *group = NULL;
    if (p->failed)
        return -1;
    if (head) {
        const gw_graphql_item_t *first = head->first;
        const char *why = NULL;
        if (gw_graphql_work(p, gw_graphql_cost(strlen(key))) != 0)
            return -1;
        if (first->name != item->name && strcmp(first->name, item->name) != 0) {
            gw_graphql_fail(
                p, item->line, item->column,
                "Fields \"%s\" conflict because \"%s\" and \"%s\" are different fields. "
                "Use different aliases on the fields to fetch both if this was "
                "intentional.",
                key, first->name, item->name);
            return -1;
        }
        if (!s_arguments_equal(p, first->arguments, first->argument_count,
                               item->arguments, item->argument_count))
            why = "they have differing arguments";
        else if (!first->selection != !item->selection)
            why = "subfields are selected on only one of them";
        if (p->failed)
            return -1;
        if (why) {
            gw_graphql_fail(
                p, item->line, item->column,
                "Fields \"%s\" conflict because %s. Use different aliases on the fields "
                "to fetch both if this was intentional.",
                key, why);
            return -1;
        }
        group = head;
        while (group && !s_conds_equal(p, group->conds, conds))
            group = group->same_key;
        if (p->failed)
            return -1;
    }
    if (!group) {
        group = gw_graphql_alloc(p, sizeof *group);
        if (!group)
            return -1;
        group->first = item;
        group->conds = conds;
        for (const s_cond_t *cond = conds; cond; cond = cond->next)
            group->cond_count++;
        if (head) {
            group->same_key = head->same_key;
            head->same_key = group;
        } else if (gw_graphql_map_put(p, &c->keys, key, group) != 0)
            return -1;
        if (c->tail)
            c->tail->next = group;
        else
            c->head = group;
        c->tail = group;
        c->count++;
    }
    s_occurrence_t *occurrence = gw_graphql_alloc(p, sizeof *occurrence);
    if (!occurrence)
        return -1;
    occurrence->item = item;
    if (group->last)
        group->last->next = occurrence;
    else
        group->occurrences = occurrence;
    group->last = occurrence;
    return 0;
}

//  Collects the fields of set into c, through fragments. nest counts the
//  spreads and inline fragments entered.
static int
s_collect(gw_graphql_parser_t *p,
          s_collect_t *c,
          const gw_graphql_psel_t *set,
          const s_cond_t *conds,
          int nest)
{
    for (size_t i = 0; i < set->count; i++) {
        const gw_graphql_item_t *item = &set->items[i];
        const s_cond_t *item_conds = conds;
        bool skipped = false;
        if (gw_graphql_work(p, 1) != 0)
            return -1;
        for (size_t d = 0; d < item->directive_count; d++) {
            const gw_gql_directive_t *directive = &item->directives[d];
            if (directive->condition->kind == GW_GQL_BOOLEAN) {
                bool include = strcmp(directive->name, "include") == 0;
                if (directive->condition->boolean != include)
                    skipped = true;
                continue;
            }
            s_cond_t *cond = gw_graphql_alloc(p, sizeof *cond);
            if (!cond)
                return -1;
            cond->directive = directive;
            cond->next = item_conds;
            item_conds = cond;
        }
        if (skipped)
            continue;
        if (item->kind == S_FIELD) {
            if (s_collect_field(p, c, item, item_conds) != 0)
                return -1;
            continue;
        }
        const gw_graphql_psel_t *inner = item->selection;
        if (item->kind == S_SPREAD) {
            const gw_graphql_fragment_t *fragment = s_find_fragment(p, item->name);
            if (!fragment)
                return -1;
            inner = fragment->selection;
        }
        if (nest + 1 > GW_GQL_MAX_DEPTH) {
            gw_graphql_fail(p, item->line, item->column,
                            "Fragments are nested more than %d levels deep.",
                            GW_GQL_MAX_DEPTH);
            return -1;
        }
        if (s_collect(p, c, inner, item_conds, nest + 1) != 0)
            return -1;
    }
    return 0;
}

//  The selection of root, or of every occurrence in group, as public
//  fields; depth is the nesting level of the result.
static const gw_gql_selection_t *
s_resolve(gw_graphql_parser_t *p,
          const gw_graphql_psel_t *root,
          const s_group_t *group,
          int depth)
{
    if (depth > GW_GQL_MAX_DEPTH) {
        gw_graphql_fail(
            p, group->first->line, group->first->column,
            "Fields are nested more than %d levels deep once fragments are inlined.",
            GW_GQL_MAX_DEPTH);
        return NULL;
    }
    s_collect_t c = {0};
    if (root && s_collect(p, &c, root, NULL, 0) != 0)
        return NULL;
    for (const s_occurrence_t *o = group ? group->occurrences : NULL; o; o = o->next)
        if (s_collect(p, &c, o->item->selection, NULL, 0) != 0)
            return NULL;
    p->fields += c.count;
    if (p->fields > GW_GQL_MAX_FIELDS) {
        gw_graphql_fail(
            p, 0, 0, "Document selects more than %d fields once fragments are inlined.",
            GW_GQL_MAX_FIELDS);
        return NULL;
    }
    gw_gql_selection_t *selection = gw_graphql_alloc(p, sizeof *selection);
    gw_gql_field_t *fields = gw_graphql_alloc(p, c.count * sizeof *fields);
    if (!selection || !fields)
        return NULL;
    size_t i = 0;
    for (const s_group_t *g = c.head; g; g = g->next, i++) {
        const gw_graphql_item_t *item = g->first;
        gw_gql_field_t *field = &fields[i];
        field->alias = item->alias;
        field->name = item->name;
        field->key = item->alias ? item->alias : item->name;
        field->arguments = item->arguments;
        field->argument_count = item->argument_count;
        field->line = item->line;
        field->column = item->column;
        if (g->cond_count) {
            gw_gql_directive_t *directives =
                gw_graphql_alloc(p, g->cond_count * sizeof *directives);
            if (!directives)
                return NULL;
            size_t d = 0;
            for (const s_cond_t *cond = g->conds; cond; cond = cond->next)
                directives[d++] = *cond->directive;
            field->directives = directives;
            field->directive_count = d;
        }
        if (item->selection && !(field->selection = s_resolve(p, NULL, g, depth + 1)))
            return NULL;
    }
    selection->fields = fields;
    selection->count = c.count;
    return selection;
}

const gw_gql_selection_t *
gw_graphql_inline(gw_graphql_parser_t *p, const gw_graphql_psel_t *root)
{
    return s_resolve(p, root, NULL, 1);
}
