/* x42_models.h - synthetic X42 models shared by the corpus generator and the tests. */
#ifndef X42_MODELS_H
#define X42_MODELS_H

#include "x42.h"

/* Common models (model_init'ed here; model_free them). */
void x42_model_animated(struct model *m);
void x42_model_static(struct model *m);
void x42_model_empty(struct model *m);

/* V5 documents built from them by the writer (arrays in a); 0 or -1 with err. */
int x42_doc_animated(struct arena *a, struct x42_doc *d, char *err, size_t errcap);
int x42_doc_tagged(struct arena *a, struct x42_doc *d, char *err, size_t errcap);
int x42_doc_lods(struct arena *a, struct x42_doc *d, char *err, size_t errcap);
int x42_doc_static(struct arena *a, struct x42_doc *d, char *err, size_t errcap);
int x42_doc_empty(struct arena *a, struct x42_doc *d, char *err, size_t errcap);

#endif
