# The web UI (webui/): a single-page app the gateway's web listener serves from
# $(BUILD)/share/backplane/webui, the web.root the gateway finds next to its binary
# (../share/backplane/webui) and `make install` puts under $(PREFIX)/share.
#
# Its libraries come from npm, pinned by webui/package-lock.json: `npm ci` installs
# them once into build/npm-webui (one place for every BUILD; npm's cache makes later
# installs work offline), and webui/build.mjs bundles the sources with esbuild.
# Without node and npm the build goes on with a message, and the listener answers
# its "not built" page; `rm -rf build/npm-webui` makes the next build try again.
WEBUI_NPM  := build/npm-webui
WEBUI_OUT  := $(BUILD)/share/backplane/webui
WEBUI_SRCS := webui/index.html webui/build.mjs $(shell find webui/src -type f)

$(WEBUI_NPM)/stamp: webui/package.json webui/package-lock.json
	@mkdir -p $(WEBUI_NPM)
	$(Q)cp webui/package.json webui/package-lock.json $(WEBUI_NPM)/
	$(Q)if command -v npm >/dev/null 2>&1 && (cd $(WEBUI_NPM) && npm ci --no-audit \
	        --no-fund --ignore-scripts --prefer-offline) >$(WEBUI_NPM)/npm.log 2>&1; then \
	    echo "  NPM     the web UI's libraries"; echo ok > $@; \
	else \
	    echo "  NPM     npm ci failed or no npm (see $(WEBUI_NPM)/npm.log): no web UI;" \
	         "rm -rf $(WEBUI_NPM) to retry"; \
	    rm -rf $(WEBUI_NPM)/node_modules; echo none > $@; \
	fi

$(WEBUI_OUT)/index.html: $(WEBUI_NPM)/stamp $(WEBUI_SRCS)
	$(Q)if [ "$$(cat $(WEBUI_NPM)/stamp)" = ok ]; then \
	    node webui/build.mjs $(WEBUI_OUT) $(CURDIR)/$(WEBUI_NPM)/node_modules; \
	else echo "  WEBUI   skipped: no npm libraries"; fi

.PHONY: webui
webui: $(WEBUI_OUT)/index.html
