#!/bin/sh
# The Model Checking Contest instances of up to 10,000 states (the rest:
# make check-mcc).
MCC_MAX_STATES=10000 exec sh "${srcdir:-tests}/mcc.sh"
