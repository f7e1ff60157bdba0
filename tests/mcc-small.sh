#!/bin/sh
# The Model Checking Contest instances of up to 20,000 states (the rest:
# make check-mcc).
MCC_MAX_STATES=20000 exec sh "${srcdir:-tests}/mcc.sh"
