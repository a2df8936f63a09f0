# config.mk - build knobs (mosquitto-style switches); override on the command line.
#   make PREFIX=/opt/backplane      install prefix
#   make SANITIZE=address,undefined sanitizer build (make check does this itself)
#   make DEBUG=1                    no optimisation
#   make V=1                        show full commands

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SYSCONFDIR ?= $(PREFIX)/etc
UNITDIR    ?= $(PREFIX)/lib/systemd/system
DESTDIR    ?=
CC         ?= cc
PYTHON     ?= /usr/bin/python3
SANITIZE   ?=
DEBUG      ?=
