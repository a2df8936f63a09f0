/*  =========================================================================
    gw_model_card - the model store: GraphQL model_card and model_cards

    Backend.AI 24.03's model store: the model folders (usage mode "model")
    of a project of type "model-store" in the caller's domain are shown to
    every user of the domain as cards. A card's fields come from the
    folder's model-definition.yaml (the first model's name and metadata,
    gw_model_def_card) and its README.*, read from the folder's
    storage-proxy before the document runs (GraphQL resolvers are
    synchronous): a listing of the root, then the two files, at most
    GW_MODEL_CARD_DEF_MAX and GW_MODEL_CARD_README_MAX bytes. What the
    metadata leaves out falls back to the folder (title and name: its name;
    author: its creator; created_at and modified_at: its creation), as
    Backend.AI's parse_model does. A folder whose definition cannot be read
    or checked, or that has none, is still a card, with only its id, name,
    author, vfolder and README, and error_msg saying what is wrong
    (Backend.AI 24.03.8+); the web UI does not offer to deploy it. A
    README is read only when the document selects readme or
    readme_filetype: a listing of the store reads the definitions alone.

    model_cards is a Relay connection, as Backend.AI's (count, edges {cursor
    node}, pageInfo): filter and order are the minilang over the cards'
    fields (name, title, task, category, author, ...), then first/after or
    last/before, and offset. model_card(id) takes the card's id (the Relay
    global id "ModelCard:<folder id>" in base64) or the folder's id.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_MODEL_CARD_H_INCLUDED
#define GW_MODEL_CARD_H_INCLUDED

#include "gw_request.h"

#define GW_MODEL_STORE_PROJECT   "model-store" //  name and type of the store's project
#define GW_MODEL_CARD_STORE_MAX  500    //  folders of the store read for one document
#define GW_MODEL_CARD_DEF_MAX    65536  //  model-definition.yaml read, as services
#define GW_MODEL_CARD_README_MAX 262144 //  README read; a larger one is left out
#define GW_MODEL_CARD_PAGE_MAX   1000   //  most edges in one page

//  error_msg of a folder without model-definition.yaml (nor .yml)
#define GW_MODEL_CARD_NO_DEFINITION "model-definition.yaml not found"

typedef void(gw_model_card_done_fn)(void *arg);

//  Whether a root field is one of this module's (model_card, model_cards).
bool gw_model_card_is_root(const char *name);

//  Reads the files of the store's folders into r->prefetch_cards, then
//  calls done(arg): every folder when ids is NULL (model_cards), else only
//  the folders ids names (model_card's arguments). ids is borrowed. The
//  READMEs (up to GW_MODEL_CARD_README_MAX each) are read only when
//  readmes is true: the document selects readme or readme_filetype.
void gw_model_card_fetch(
    gw_request_t *r, json_t *ids, bool readmes, gw_model_card_done_fn *done, void *arg);

//  The root fields, for gw_gql's table.
extern const gw_gql_root_t gw_model_card_gql[];

#endif
