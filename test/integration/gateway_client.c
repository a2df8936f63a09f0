/*  =========================================================================
    gateway_client - platform start-up and a signing client for tests

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../../services/gateway/gw_auth.h"
#include "gateway_client.h"

bool
client_read_admin_env(const char *path, client_keypair_t *kp)
{
    FILE *file = fopen(path, "r");
    char line[512];
    while (file && fgets(line, sizeof line, file)) {
        sscanf(line, "export BACKEND_ACCESS_KEY=%31s", kp->access_key);
        sscanf(line, "export BACKEND_SECRET_KEY=%63s", kp->secret_key);
    }
    if (file)
        fclose(file);
    return *kp->access_key && *kp->secret_key;
}

bool
client_person(const client_platform_t *self,
              const char *email,
              const char *domain,
              const char *role,
              client_keypair_t *kp)
{
    json_t *groups = client_gql(
        self, &self->super, "query($d: String!) { groups(domain_name: $d) { id name } }",
        json_pack("{s:s}", "d", domain));
    json_t *ids = json_array();
    size_t index;
    json_t *group;
    json_array_foreach(json_object_get(json_object_get(groups, "data"), "groups"), index,
                       group)
    {
        const char *name = json_string_value(json_object_get(group, "name"));
        if (name && strcmp(name, "default") == 0)
            json_array_append(ids, json_object_get(group, "id"));
    }
    json_decref(groups);
    json_t *r = client_gql(self, &self->super,
                           "mutation($email: String!, $input: UserInput!) {"
                           " create_user(email: $email, props: $input) { ok msg } }",
                           json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:b, s:o}}", "email",
                                     email, "input", "password", "pw-123456",
                                     "domain_name", domain, "role", role, "username",
                                     email, "need_password_change", 0, "group_ids", ids));
    if (!client_mutation_ok(r, "create_user"))
        printf("# create_user %s failed\n", email);
    json_decref(r);
    return client_keypair_of(self, email, kp);
}

int
client_platform_start(client_platform_t *self, const char *name, bool with_accounting)
{
    return client_platform_start_with(self, name, with_accounting, NULL);
}

//  Writes a test secret into dir/name (mode 0600). 0 or -1.
static int
s_write_secret(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *secret = fopen(path, "w");
    if (!secret || fprintf(secret, "platform-test-%s-0123456789abcdef\n", name) < 0) {
        if (secret)
            fclose(secret);
        return -1;
    }
    fclose(secret);
    return chmod(path, 0600);
}

//  Starts the gateway on the platform's bus as the process name and waits
//  for its ready line (into line), setting self->api. 0 or -1.
static int
s_gateway_start(client_platform_t *self, const char *name, char *line)
{
    char gw_state[512], pub[200], sub[200], reg[200], secret_opt[600], apps_opt[600];
    snprintf(gw_state, sizeof gw_state, "node.state_dir=%s/gateway", self->dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", self->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", self->hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", self->registry);
    snprintf(secret_opt, sizeof secret_opt,
             "vfolders.token_secret_file=%s/storage.secret", self->dir);
    snprintf(apps_opt, sizeof apps_opt, "apps.token_secret_file=%s/apps.secret",
             self->dir);
    char web_root[600];
    snprintf(web_root, sizeof web_root, "web.root=%s/webui", self->dir);
    //  No wsproxy unless a test names one for its resource group.
    const char *gw_args[] = {"--set", gw_state,
                             "--set", pub,
                             "--set", sub,
                             "--set", reg,
                             "--set", "api.listen=127.0.0.1:0",
                             "--set", "web.listen=127.0.0.1:0",
                             "--set", web_root,
                             "--set", "auth.password_iterations=1000",
                             "--set", "bus.heartbeat_ms=100",
                             "--set", "bus.sync_ms=200",
                             "--set", secret_opt,
                             "--set", apps_opt,
                             "--set", "apps.wsproxy_addr=",
                             NULL};
    const char *args[sizeof gw_args / sizeof gw_args[0] + 2 * CLIENT_GATEWAY_SETS_MAX];
    size_t n = 0;
    for (; gw_args[n]; n++)
        args[n] = gw_args[n];
    for (size_t i = 0;
         self->gateway_sets && self->gateway_sets[i] && i < CLIENT_GATEWAY_SETS_MAX;
         i++) {
        args[n++] = "--set";
        args[n++] = self->gateway_sets[i];
    }
    args[n] = NULL;
    char url[128];
    if (harness_start(&self->gateway, self->dir, name, "gateway", args) != 0 ||
        !harness_wait_line(&self->gateway, "ready ", CLIENT_READY_MS, line,
                           HARNESS_LINE_MAX) ||
        !harness_field(line, "url", url, sizeof url) || strncmp(url, "http://", 7) != 0)
        return -1;
    snprintf(self->api, sizeof self->api, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
    //  The web listener, whose address the ready line gives as web=
    if (!harness_field(line, "web", url, sizeof url) || strncmp(url, "http://", 7) != 0)
        return -1;
    snprintf(self->web, sizeof self->web, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
    return 0;
}

int
client_platform_start_with(client_platform_t *self,
                           const char *name,
                           bool with_accounting,
                           const char *const *scheduler_sets)
{
    return client_platform_start_ex(self, name, with_accounting, scheduler_sets, NULL);
}

int
client_platform_start_ex(client_platform_t *self,
                         const char *name,
                         bool with_accounting,
                         const char *const *scheduler_sets,
                         const char *const *gateway_sets)
{
    memset(self, 0, sizeof *self);
    self->gateway_sets = gateway_sets;
    self->with_accounting = with_accounting;
    self->dir = harness_tmpdir(name);
    if (!self->dir)
        return -1;
    char line[HARNESS_LINE_MAX], pub[200], sub[200], reg[200];
    const char *sets[CLIENT_SCHEDULER_SETS_MAX + 2] = {"agents.lost_ms=1500"};
    for (size_t i = 0;
         scheduler_sets && scheduler_sets[i] && i < CLIENT_SCHEDULER_SETS_MAX; i++)
        sets[i + 1] = scheduler_sets[i];
    harness_endpoints_t sched;
    if (harness_scheduler_start(&self->scheduler, self->dir, "scheduler", NULL, sets,
                                &sched) != 0)
        return -1;
    snprintf(self->hub_publish, sizeof self->hub_publish, "%s", sched.hub_publish);
    snprintf(self->hub_subscribe, sizeof self->hub_subscribe, "%s", sched.hub_subscribe);
    snprintf(self->registry, sizeof self->registry, "%s", sched.registry);
    snprintf(self->scheduler_rpc, sizeof self->scheduler_rpc, "%s", sched.rpc);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", self->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", self->hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", self->registry);

    //  The secrets the gateway signs upload and download tokens (for a
    //  storage-proxy a test may start: client_storage_start) and app tokens
    //  (for a wsproxy) with.
    if (s_write_secret(self->dir, "storage.secret") != 0 ||
        s_write_secret(self->dir, "apps.secret") != 0)
        return -1;
    char acct_state[512];
    snprintf(acct_state, sizeof acct_state, "node.state_dir=%s/accounting", self->dir);
    const char *acct_args[] = {
        "--set", acct_state,        "--set", pub,     "--set",
        sub,     "--set",           reg,     "--set", "bus.heartbeat_ms=100",
        "--set", "bus.sync_ms=200", NULL};
    if (s_gateway_start(self, "gateway", line) != 0)
        return -1;
    if (with_accounting && harness_start(&self->accounting, self->dir, "accounting",
                                         "accounting", acct_args) != 0)
        return -1;
    if (with_accounting &&
        !harness_wait_line(&self->accounting, "ready ", CLIENT_READY_MS, NULL, 0))
        return -1;
    char env[512];
    snprintf(env, sizeof env, "%s/gateway/admin.env", self->dir);
    return client_read_admin_env(env, &self->super) ? 0 : -1;
}

bool
client_gateway_restart(client_platform_t *self, const char *name)
{
    int status = harness_stop(&self->gateway, CLIENT_STOP_MS);
    bool clean = status == 0 && !harness_log_has_report(&self->gateway);
    if (!clean)
        fprintf(stderr, "# gateway exit=%d log=%s\n", status, self->gateway.log_path);
    char line[HARNESS_LINE_MAX];
    if (s_gateway_start(self, name, line) != 0)
        return false;
    return clean;
}

bool
client_platform_stop(client_platform_t *self)
{
    harness_proc_t *procs[] = {&self->gateway, &self->accounting, &self->scheduler};
    bool clean = true;
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        if (procs[i] == &self->accounting && !self->with_accounting)
            continue;
        int status = harness_stop(procs[i], CLIENT_STOP_MS);
        if (status != 0 || harness_log_has_report(procs[i])) {
            fprintf(stderr, "# %s exit=%d log=%s\n", procs[i]->name, status,
                    procs[i]->log_path);
            clean = false;
        }
    }
    return clean;
}

void
client_platform_end(client_platform_t *self, bool keep)
{
    harness_kill(&self->gateway);
    harness_kill(&self->accounting);
    harness_kill(&self->scheduler);
    harness_sweep(self->dir); //  as harness_teardown does
    if (keep)
        fprintf(stderr, "# logs kept in %s\n", self->dir);
    else
        harness_rmdir(self->dir);
    free(self->dir);
    self->dir = NULL;
}

//  ISO 8601 UTC with microseconds, skewed by offset_s, and its YYYYMMDD.
static void
s_date(char out[64], char key[9], int offset_s)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    time_t seconds = tv.tv_sec + offset_s;
    struct tm tm;
    gmtime_r(&seconds, &tm);
    size_t n = strftime(out, 64, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 64 - n, ".%06ld+00:00", (long) tv.tv_usec);
    strftime(key, 9, "%Y%m%d", &tm);
}

int
client_signed(const client_platform_t *self,
              const client_keypair_t *kp,
              const char *method,
              const char *path,
              const char *body,
              const client_sign_opts_t *opts,
              char **body_p,
              char **headers_p)
{
    return client_signed_bytes(self, kp, method, path, body, opts, body_p, NULL,
                               headers_p);
}

int
client_signed_bytes(const client_platform_t *self,
                    const client_keypair_t *kp,
                    const char *method,
                    const char *path,
                    const char *body,
                    const client_sign_opts_t *opts,
                    char **body_p,
                    size_t *size_p,
                    char **headers_p)
{
    client_sign_opts_t none = {0};
    if (!opts)
        opts = &none;
    char date[64], key[9], sig[GW_AUTH_HEX_SIZE] = "", auth[256], date_h[96],
                           version_h[64];
    s_date(date, key, opts->date_offset_s);
    const char *version = opts->version ? opts->version : "v6.20220315";
    const char *ctype = opts->content_type ? opts->content_type
                        : body             ? "application/json"
                                           : "application/octet-stream";
    //  Clients sign the media type without its parameters (a multipart
    //  boundary), as aiohttp's request.content_type gives it on the server.
    char signed_type[128];
    snprintf(signed_type, sizeof signed_type, "%.*s", (int) strcspn(ctype, ";"), ctype);
    if (kp)
        gw_auth_signature("sha256", opts->secret ? opts->secret : kp->secret_key, method,
                          opts->sign_path ? opts->sign_path : path, date, key, self->api,
                          signed_type, GW_AUTH_VERSION_LINE, version, sig, sizeof sig);
    if (opts->authorization)
        snprintf(auth, sizeof auth, "Authorization: %s", opts->authorization);
    else if (kp)
        snprintf(auth, sizeof auth,
                 "Authorization: BackendAI signMethod=HMAC-SHA256, credential=%s:%s",
                 kp->access_key, sig);
    snprintf(date_h, sizeof date_h, "Date: %s", date);
    snprintf(version_h, sizeof version_h, "X-BackendAI-Version: %s", version);
    char cookie_h[256];
    snprintf(cookie_h, sizeof cookie_h, "Cookie: %s", opts->cookie ? opts->cookie : "");
    const char *headers[5] = {date_h, version_h, NULL, NULL, NULL};
    int count = 2;
    if (kp || opts->authorization)
        headers[count++] = auth;
    if (opts->cookie)
        headers[count++] = cookie_h;
    return harness_http_bytes(self->api, method, path, headers, body ? ctype : NULL, body,
                              body_p, size_p, headers_p,
                              opts->timeout_ms > 0 ? opts->timeout_ms : CLIENT_HTTP_MS);
}

json_t *
client_gql(const client_platform_t *self,
           const client_keypair_t *kp,
           const char *query,
           json_t *variables)
{
    json_t *request = json_pack("{s:s, s:o}", "query", query, "variables",
                                variables ? variables : json_object());
    char *text = json_dumps(request, JSON_COMPACT);
    json_decref(request);
    char *body = NULL;
    int status = client_signed(self, kp, "POST", "/admin/gql", text, NULL, &body, NULL);
    free(text);
    json_t *response = status == 200 ? json_loads(body, 0, NULL) : NULL;
    if (!response)
        fprintf(stderr, "# gql status=%d body=%s\n", status, body ? body : "");
    free(body);
    return response;
}

bool
client_mutation_ok(json_t *response, const char *field)
{
    json_t *result = json_object_get(json_object_get(response, "data"), field);
    bool ok = json_is_true(json_object_get(result, "ok"));
    if (!ok)
        fprintf(stderr, "# %s: %s\n", field,
                json_string_value(json_object_get(result, "msg"))
                    ? json_string_value(json_object_get(result, "msg"))
                    : "(no msg)");
    return ok;
}

bool
client_storage_start(client_platform_t *self,
                     harness_proc_t *proxy,
                     char *hostport,
                     size_t size)
{
    return client_storage_start_with(self, proxy, hostport, size, NULL);
}

bool
client_storage_start_with(client_platform_t *self,
                          harness_proc_t *proxy,
                          char *hostport,
                          size_t size,
                          const char *const *sets)
{
    char state[512], volumes[600], secret[600], pub[160], sub[160], reg[160], volume[512];
    snprintf(volume, sizeof volume, "%s/vfolders", self->dir);
    if (mkdir(volume, 0755) != 0 && errno != EEXIST)
        return false;
    snprintf(state, sizeof state, "node.state_dir=%s/storage-proxy", self->dir);
    snprintf(volumes, sizeof volumes, "storage.volumes=volume1=local:%s", volume);
    snprintf(secret, sizeof secret, "http.token_secret_file=%s/storage.secret",
             self->dir);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", self->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", self->hub_subscribe);
    snprintf(reg, sizeof reg, "bus.hub.registry=%s", self->registry);
    const char *args[] = {"--set", state,
                          "--set", volumes,
                          "--set", secret,
                          "--set", "storage.proxy_name=local",
                          "--set", "storage.scan_ms=200",
                          "--set", "http.listen=127.0.0.1:0",
                          "--set", pub,
                          "--set", sub,
                          "--set", reg,
                          "--set", "bus.heartbeat_ms=100",
                          "--set", "bus.sync_ms=200",
                          NULL};
    //  The fixed arguments, then "--set" before each of sets.
    const char *all[sizeof args / sizeof *args + 2 * CLIENT_STORAGE_SETS_MAX];
    size_t n = 0;
    for (; args[n]; n++)
        all[n] = args[n];
    for (size_t i = 0; sets && sets[i] && i < CLIENT_STORAGE_SETS_MAX; i++) {
        all[n++] = "--set";
        all[n++] = sets[i];
    }
    all[n] = NULL;
    char line[HARNESS_LINE_MAX], url[256];
    if (harness_start(proxy, self->dir, "storage-proxy", "storage-proxy", all) != 0 ||
        !harness_wait_line(proxy, "ready ", CLIENT_READY_MS, line, sizeof line) ||
        !harness_field(line, "url", url, sizeof url) || strncmp(url, "http://", 7) != 0)
        return false;
    snprintf(hostport, size, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
    //  The gateway learns of the proxy's volumes from the registry: until
    //  then a folder on them is "no storage-proxy serves the host".
    for (int waited = 0; waited < CLIENT_READY_MS; waited += 100) {
        char *body = NULL;
        int status = client_signed(self, &self->super, "GET", "/folders/_/all-hosts",
                                   NULL, NULL, &body, NULL);
        bool known = status == 200 && body && strstr(body, "\"local:volume1\"");
        free(body);
        if (known)
            return true;
        harness_pause_ms(100);
    }
    return false;
}

bool
client_keypair_of(const client_platform_t *self, const char *email, client_keypair_t *kp)
{
    json_t *r =
        client_gql(self, &self->super,
                   "query($e: String) { keypairs(email: $e) { access_key secret_key } }",
                   json_pack("{s:s}", "e", email));
    json_t *first =
        json_array_get(json_object_get(json_object_get(r, "data"), "keypairs"), 0);
    bool ok = first != NULL;
    if (ok) {
        snprintf(kp->access_key, sizeof kp->access_key, "%s",
                 json_string_value(json_object_get(first, "access_key")));
        snprintf(kp->secret_key, sizeof kp->secret_key, "%s",
                 json_string_value(json_object_get(first, "secret_key")));
    }
    json_decref(r);
    return ok;
}

bool
client_agent_start(client_platform_t *self,
                   harness_proc_t *agent,
                   const char *name,
                   const char *bridge,
                   const char *cidr)
{
    return client_agent_start_with(self, agent, name, bridge, cidr, NULL);
}

bool
client_agent_start_with(client_platform_t *self,
                        harness_proc_t *agent,
                        const char *name,
                        const char *bridge,
                        const char *cidr,
                        const char *const *sets)
{
    char net[64], subnet[80];
    snprintf(net, sizeof net, "agent.network.bridge=%s", bridge);
    snprintf(subnet, sizeof subnet, "agent.network.cidr=%s", cidr);
    //  Statistics every half second, so a session's last ones are there to
    //  see however short the test.
    const char *extra[16] = {"agent.slots.cpu=2",
                             "agent.slots.mem=2g",
                             net,
                             subnet,
                             "agent.stats_ms=500",
                             NULL};
    for (size_t i = 5, j = 0; sets && sets[j] && i < 15; i++, j++)
        extra[i] = sets[j];
    harness_bus_t bus = {self->hub_publish, self->hub_subscribe, self->registry};
    if (harness_busybox_images(self->dir) != 0 ||
        harness_agent_start(agent, self->dir, name, &bus, extra, NULL, 0) != 0)
        return false;
    //  The gateway resolves images from its catalogue, fed by the agent.
    return client_image_listed(self, "busybox");
}

bool
client_image_agent_start(client_platform_t *self,
                         harness_proc_t *agent,
                         const char *name,
                         const char *bridge,
                         const char *images_dir,
                         const char *image)
{
    char from[512], to[512], net[64], subnet[80];
    snprintf(from, sizeof from, "%s/images", images_dir);
    snprintf(to, sizeof to, "%s/images", self->dir);
    const char *cidr = harness_subnet();
    if (rename(from, to) != 0 || !cidr)
        return false;
    snprintf(net, sizeof net, "agent.network.bridge=%s", bridge);
    snprintf(subnet, sizeof subnet, "agent.network.cidr=%s", cidr);
    const char *extra[] = {"agent.slots.cpu=2", "agent.slots.mem=2g", net, subnet, NULL};
    harness_bus_t bus = {self->hub_publish, self->hub_subscribe, self->registry};
    if (harness_agent_start(agent, self->dir, name, &bus, extra, NULL, 0) != 0)
        return false;
    return client_image_listed(self, image);
}

bool
client_image_listed(const client_platform_t *self, const char *image)
{
    char wanted[128];
    snprintf(wanted, sizeof wanted, "library/%s", image);
    for (int tries = 0; tries < CLIENT_READY_MS / 100; tries++) {
        json_t *r = client_gql(self, &self->super, "{ images { name } }", NULL);
        char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
        bool listed = text && strstr(text, wanted);
        free(text);
        json_decref(r);
        if (listed)
            return true;
        harness_pause_ms(100);
    }
    return false;
}

bool
client_session_running(const client_platform_t *self,
                       const client_keypair_t *kp,
                       const char *body,
                       const char *name,
                       char *session_id)
{
    char *text = NULL;
    int status = client_signed(self, kp, "POST", "/session", body, NULL, &text, NULL);
    json_t *r = text ? json_loads(text, 0, NULL) : NULL;
    if (session_id)
        snprintf(session_id, 64, "%s",
                 json_string_value(json_object_get(r, "sessionId"))
                     ? json_string_value(json_object_get(r, "sessionId"))
                     : "");
    json_decref(r);
    if (status != 201) {
        fprintf(stderr, "# POST /session: %d %s\n", status, text ? text : "");
        free(text);
        return false;
    }
    free(text);
    char path[128];
    snprintf(path, sizeof path, "/session/%s", name);
    for (int tries = 0; tries < 1200; tries++) {
        text = NULL;
        client_signed(self, kp, "GET", path, NULL, NULL, &text, NULL);
        bool running = text && strstr(text, "\"RUNNING\"");
        bool ended =
            text && (strstr(text, "\"CANCELLED\"") || strstr(text, "\"TERMINATED\""));
        if (ended)
            fprintf(stderr, "# %s\n", text);
        free(text);
        if (running || ended)
            return running;
        harness_pause_ms(100);
    }
    return false;
}

bool
client_wsproxy_start(client_platform_t *self,
                     harness_proc_t *wsproxy,
                     char *api,
                     size_t size)
{
    char state[600], secret[700], ports[64], pub[200], sub[200], registry[200];
    snprintf(state, sizeof state, "node.state_dir=%s/wsproxy", self->dir);
    snprintf(secret, sizeof secret, "wsproxy.token_secret_file=%s/apps.secret",
             self->dir);
    int low = harness_free_port();
    snprintf(ports, sizeof ports, "wsproxy.app_ports=%d-%d", low, low + 3);
    snprintf(pub, sizeof pub, "bus.hub.publish=%s", self->hub_publish);
    snprintf(sub, sizeof sub, "bus.hub.subscribe=%s", self->hub_subscribe);
    snprintf(registry, sizeof registry, "bus.hub.registry=%s", self->registry);
    const char *args[] = {"--set", state,    "--set", secret,
                          "--set", ports,    "--set", "wsproxy.listen=127.0.0.1:0",
                          "--set", pub,      "--set", sub,
                          "--set", registry, "--set", "bus.heartbeat_ms=100",
                          NULL};
    char line[HARNESS_LINE_MAX], url[160];
    if (harness_start(wsproxy, self->dir, "wsproxy", "wsproxy", args) != 0 ||
        !harness_wait_line(wsproxy, "ready ", CLIENT_READY_MS, line, sizeof line) ||
        !harness_field(line, "url", url, sizeof url) || strncmp(url, "http://", 7) != 0)
        return false;
    snprintf(api, size, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
    return true;
}

//  The value of header name in a response head, or "".
static void
s_header(const char *head, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    size_t len = strlen(name);
    for (const char *p = head; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncasecmp(p, name, len) == 0 && p[len] == ':') {
            const char *value = p + len + 1;
            while (*value == ' ')
                value++;
            snprintf(out, size, "%.*s", (int) strcspn(value, "\r\n"), value);
            return;
        }
}

bool
client_app_via_wsproxy(const client_platform_t *self,
                       const client_keypair_t *kp,
                       const char *session,
                       const char *session_id,
                       const char *app,
                       const char *wsproxy_addr,
                       char *hostport,
                       size_t hostport_size,
                       char *cookie,
                       size_t cookie_size)
{
    char path[4096], body[256];
    snprintf(path, sizeof path, "/session/%s/start-service", session);
    snprintf(body, sizeof body,
             "{\"app\": \"%s\", \"login_session_token\": null, \"arguments\": \"null\"}",
             app);
    char *text = NULL;
    int status = client_signed(self, kp, "POST", path, body, NULL, &text, NULL);
    json_t *r = text ? json_loads(text, 0, NULL) : NULL;
    const char *token = json_string_value(json_object_get(r, "token"));
    const char *addr = json_string_value(json_object_get(r, "wsproxy_addr"));
    if (status != 200 || !token || !addr || strcmp(addr, wsproxy_addr) != 0 ||
        strncmp(addr, "http://", 7) != 0) {
        fprintf(stderr, "# start-service: %d %s\n", status, text ? text : "");
        free(text);
        json_decref(r);
        return false;
    }
    free(text);
    char api[256];
    snprintf(api, sizeof api, "%.*s", (int) strcspn(addr + 7, "/"), addr + 7);
    snprintf(path, sizeof path, "/v2/proxy/%s/%s/add?app=%s&protocol=http", token,
             session_id, app);
    json_decref(r);
    text = NULL;
    status = harness_http_ex(api, "GET", path, NULL, NULL, NULL, &text, NULL, 10000);
    r = text ? json_loads(text, 0, NULL) : NULL;
    const char *url = json_string_value(json_object_get(r, "url"));
    if (status != 200 || !url || strncmp(url, "http://", 7) != 0) {
        fprintf(stderr, "# add: %d %s\n", status, text ? text : "");
        free(text);
        json_decref(r);
        return false;
    }
    free(text);
    //  The URL's port is the app's; its path and query carry the permit.
    snprintf(hostport, hostport_size, "%.*s", (int) strcspn(url + 7, "/"), url + 7);
    char *head = NULL;
    text = NULL;
    status = harness_http_ex(hostport, "GET", url + 7 + strlen(hostport), NULL, NULL,
                             NULL, &text, &head, 10000);
    s_header(head ? head : "", "Set-Cookie", cookie, cookie_size);
    cookie[strcspn(cookie, ";")] = '\0';
    free(head);
    free(text);
    json_decref(r);
    if (status != 302 || !cookie[0]) {
        fprintf(stderr, "# permit: %d, cookie \"%s\"\n", status, cookie);
        return false;
    }
    return true;
}

//  ---------------------------------------------------------------------------
//  Long-lived requests: event streams and WebSockets

static long long
s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  Reads exactly size bytes before deadline_ms. 0 or -1.
static int
s_read_exact(int fd, void *data, size_t size, long long deadline_ms)
{
    size_t got = 0;
    while (got < size) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int left = (int) (deadline_ms - s_now_ms());
        if (left <= 0 || poll(&pfd, 1, left) <= 0)
            return -1;
        ssize_t n = read(fd, (char *) data + got, size - got);
        if (n <= 0)
            return -1;
        got += (size_t) n;
    }
    return 0;
}

int
client_stream_open(const client_platform_t *self,
                   const client_keypair_t *kp,
                   const char *path,
                   const char *const *extra,
                   int *status,
                   char *head,
                   size_t head_size)
{
    *status = -1;
    char host[64];
    const char *colon = strrchr(self->api, ':');
    snprintf(host, sizeof host, "%.*s", (int) (colon - self->api), self->api);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
    inet_pton(AF_INET, host, &addr.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    //  Streams are signed as application/octet-stream and send no
    //  Content-Type (reference §1). Without kp, nothing is signed (a
    //  browser's request, whose cookie comes in extra).
    char date[64], key[9], sig[GW_AUTH_HEX_SIZE] = "";
    s_date(date, key, 0);
    char request[4096];
    int len;
    if (kp) {
        gw_auth_signature("sha256", kp->secret_key, "GET", path, date, key, self->api,
                          "application/octet-stream", GW_AUTH_VERSION_LINE, "v6.20220315",
                          sig, sizeof sig);
        len = snprintf(
            request, sizeof request,
            "GET %s HTTP/1.1\r\nHost: %s\r\nDate: %s\r\n"
            "X-BackendAI-Version: v6.20220315\r\n"
            "Authorization: BackendAI signMethod=HMAC-SHA256, credential=%s:%s\r\n",
            path, self->api, date, kp->access_key, sig);
    } else
        len = snprintf(request, sizeof request,
                       "GET %s HTTP/1.1\r\nHost: %s\r\n"
                       "X-BackendAI-Version: v6.20220315\r\n",
                       path, self->api);
    for (int i = 0; extra && extra[i]; i++)
        len += snprintf(request + len, sizeof request - (size_t) len, "%s\r\n", extra[i]);
    len += snprintf(request + len, sizeof request - (size_t) len, "\r\n");
    if (write(fd, request, (size_t) len) != len) {
        close(fd);
        return -1;
    }
    //  The head, a byte at a time so that nothing after it is consumed.
    size_t used = 0;
    long long deadline = s_now_ms() + CLIENT_HTTP_MS;
    while (used + 1 < head_size) {
        if (s_read_exact(fd, head + used, 1, deadline) != 0)
            break;
        used++;
        head[used] = 0;
        if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0)
            break;
    }
    head[used] = 0;
    if (sscanf(head, "HTTP/1.%*d %d", status) != 1) {
        close(fd);
        return -1;
    }
    return fd;
}

int
client_ws_open(const client_platform_t *self,
               const client_keypair_t *kp,
               const char *path,
               int *status)
{
    return client_ws_open_ex(self, kp, path, NULL, status);
}

int
client_ws_open_ex(const client_platform_t *self,
                  const client_keypair_t *kp,
                  const char *path,
                  const char *const *extra,
                  int *status)
{
    //  The key and its answer from RFC 6455 section 1.3.
    const char *handshake[16] = {"Upgrade: websocket", "Connection: Upgrade",
                                 "Sec-WebSocket-Version: 13",
                                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="};
    for (int i = 0; extra && extra[i] && i < 11; i++)
        handshake[4 + i] = extra[i];
    char head[4096];
    int fd = client_stream_open(self, kp, path, handshake, status, head, sizeof head);
    if (fd >= 0 &&
        (*status != 101 ||
         !strstr(head, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))) {
        if (*status == 101)
            fprintf(stderr, "# bad handshake answer:\n%s\n", head);
        close(fd);
        return -1;
    }
    return fd;
}

int
client_ws_send_raw(int fd, const void *data, size_t size)
{
    return write(fd, data, size) == (ssize_t) size ? 0 : -1;
}

int
client_ws_send(int fd, int opcode, const void *data, size_t size)
{
    unsigned char *frame = malloc(size + 14);
    if (!frame)
        return -1;
    size_t n = 0;
    frame[n++] = (unsigned char) (0x80 | opcode);
    if (size < 126)
        frame[n++] = (unsigned char) (0x80 | size);
    else if (size <= 0xFFFF) {
        frame[n++] = 0x80 | 126;
        frame[n++] = (unsigned char) (size >> 8);
        frame[n++] = (unsigned char) size;
    } else {
        frame[n++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            frame[n++] = (unsigned char) ((uint64_t) size >> (8 * i));
    }
    static const unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(frame + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < size; i++)
        frame[n + i] = ((const unsigned char *) data)[i] ^ mask[i & 3];
    int rc = client_ws_send_raw(fd, frame, n + size);
    free(frame);
    return rc;
}

int
client_ws_recv(int fd, char **data_p, size_t *size_p, int timeout_ms)
{
    long long deadline = s_now_ms() + timeout_ms;
    unsigned char head[10];
    if (s_read_exact(fd, head, 2, deadline) != 0)
        return -1;
    uint64_t size = head[1] & 0x7F;
    if (size == 126) {
        if (s_read_exact(fd, head + 2, 2, deadline) != 0)
            return -1;
        size = (uint64_t) head[2] << 8 | head[3];
    } else if (size == 127) {
        if (s_read_exact(fd, head + 2, 8, deadline) != 0)
            return -1;
        size = 0;
        for (int i = 0; i < 8; i++)
            size = size << 8 | head[2 + i];
    }
    if (head[1] & 0x80 || size > 64 * 1024 * 1024) //  servers never mask
        return -1;
    char *data = malloc(size + 1);
    if (!data || s_read_exact(fd, data, size, deadline) != 0) {
        free(data);
        return -1;
    }
    data[size] = 0;
    *data_p = data;
    if (size_p)
        *size_p = size;
    return head[0] & 0x0F;
}

char *
client_read_until(int fd, const char *needle, int timeout_ms)
{
    long long deadline = s_now_ms() + timeout_ms;
    size_t cap = 65536, used = 0;
    char *text = malloc(cap + 1);
    while (text) {
        text[used] = 0;
        if (strstr(text, needle))
            return text;
        struct pollfd pfd = {fd, POLLIN, 0};
        int left = (int) (deadline - s_now_ms());
        if (left <= 0 || poll(&pfd, 1, left) <= 0 || used == cap)
            break;
        ssize_t n = read(fd, text + used, cap - used);
        if (n <= 0)
            break;
        used += (size_t) n;
    }
    if (text)
        fprintf(stderr, "# waited for '%s'; read:\n%s\n", needle, text);
    free(text);
    return NULL;
}

//  ---------------------------------------------------------------------------
//  The local end of an app tunnel

struct client_tunnel_s {
    const client_platform_t *platform;
    const client_keypair_t *kp;
    char *path;
    int listener;
    int port;
    pthread_t acceptor;
};

//  One accepted connection: its own copy of the path, so that it may outlive
//  the tunnel.
typedef struct {
    const client_platform_t *platform;
    const client_keypair_t *kp;
    char *path;
    int tcp;
} s_pump_t;

static void *
s_tunnel_pump(void *arg)
{
    s_pump_t *pump = arg;
    int status = 0;
    int ws = client_ws_open(pump->platform, pump->kp, pump->path, &status);
    if (ws < 0)
        fprintf(stderr, "# tunnel %s refused: %d\n", pump->path, status);
    char buf[65536];
    while (ws >= 0) {
        struct pollfd fds[2] = {{pump->tcp, POLLIN, 0}, {ws, POLLIN, 0}};
        if (poll(fds, 2, CLIENT_TUNNEL_IDLE_MS) <= 0)
            break;
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(pump->tcp, buf, sizeof buf);
            if (n <= 0 || client_ws_send(ws, 2, buf, (size_t) n) != 0)
                break;
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            char *data = NULL;
            size_t size = 0;
            int opcode = client_ws_recv(ws, &data, &size, CLIENT_HTTP_MS);
            bool go_on = opcode == 2 || opcode == 9 || opcode == 10;
            if (opcode == 2 && write(pump->tcp, data, size) != (ssize_t) size)
                go_on = false;
            if (opcode == 9)
                client_ws_send(ws, 10, data, size);
            free(data);
            if (!go_on)
                break;
        }
    }
    if (ws >= 0)
        close(ws);
    close(pump->tcp);
    free(pump->path);
    free(pump);
    return NULL;
}

static void *
s_tunnel_accept(void *arg)
{
    client_tunnel_t *self = arg;
    int tcp;
    while ((tcp = accept(self->listener, NULL, NULL)) >= 0) {
        s_pump_t *pump = calloc(1, sizeof *pump);
        char *path = strdup(self->path);
        pthread_t thread;
        if (pump && path) {
            *pump = (s_pump_t){self->platform, self->kp, path, tcp};
            if (pthread_create(&thread, NULL, s_tunnel_pump, pump) == 0) {
                pthread_detach(thread);
                continue;
            }
        }
        free(path);
        free(pump);
        close(tcp);
    }
    return NULL;
}

client_tunnel_t *
client_tunnel_new(const client_platform_t *platform,
                  const client_keypair_t *kp,
                  const char *path)
{
    client_tunnel_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    *self = (client_tunnel_t){platform, kp, strdup(path), -1, 0, 0};
    self->listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (!self->path || self->listener < 0 ||
        bind(self->listener, (struct sockaddr *) &addr, sizeof addr) != 0 ||
        listen(self->listener, 16) != 0 ||
        getsockname(self->listener, (struct sockaddr *) &addr, &len) != 0 ||
        pthread_create(&self->acceptor, NULL, s_tunnel_accept, self) != 0) {
        if (self->listener >= 0)
            close(self->listener);
        free(self->path);
        free(self);
        return NULL;
    }
    self->port = ntohs(addr.sin_port);
    return self;
}

int
client_tunnel_port(const client_tunnel_t *self)
{
    return self->port;
}

void
client_tunnel_destroy(client_tunnel_t **self_p)
{
    client_tunnel_t *self = self_p ? *self_p : NULL;
    if (!self)
        return;
    //  accept() fails once the listener is shut down: the acceptor ends.
    shutdown(self->listener, SHUT_RDWR);
    pthread_join(self->acceptor, NULL);
    close(self->listener);
    free(self->path);
    free(self);
    *self_p = NULL;
}
