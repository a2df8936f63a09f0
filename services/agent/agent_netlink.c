/*  =========================================================================
    agent_netlink - rtnetlink requests and named network namespaces

    Requests are built by hand in a small fixed buffer: a nlmsghdr, the
    family header (ifinfomsg, ifaddrmsg, rtmsg) and rtattr attributes,
    nested ones closed by patching their length. Each asks for an ack and
    carries its own sequence number; the reader skips whatever does not
    match it (a reply left over from an earlier request that gave up), hands
    data messages to a parser and stops at the ack, whose error code is the
    answer. NETLINK_EXT_ACK adds the kernel's own message to errors.

    A named namespace is made the way iproute2's netns.c does it: an empty
    file under the directory, then a helper thread (so the caller never
    leaves its namespace) unshares CLONE_NEWNET, bind-mounts
    /proc/thread-self/ns/net on the file and opens a rtnetlink socket, which
    stays in the new namespace after the thread ends.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include <arpa/inet.h>       //  htonl, inet_ntop: addresses in errors
#include <fcntl.h>           //  open flags
#include <linux/if_addr.h>   //  ifaddrmsg, IFA_*
#include <linux/if_link.h>   //  IFLA_*: link attributes
#include <linux/netlink.h>   //  nlmsghdr, sockaddr_nl, NETLINK_EXT_ACK
#include <linux/rtnetlink.h> //  RTM_*, rtattr, ifinfomsg, rtmsg
#include <linux/veth.h>      //  VETH_INFO_PEER
#include <net/if.h>          //  IFF_UP
#include <pthread.h>         //  the namespace-making thread
#include <sched.h>           //  unshare, CLONE_NEWNET
#include <sys/file.h>        //  flock: serialise making the shared mount
#include <sys/mount.h>       //  mount, umount2
#include <sys/socket.h>      //  socket, sendto, recvmsg
#include <sys/time.h>        //  timeval: the receive timeout

#define MSG_MAX        512   //  our largest request (a veth pair) is under 200 bytes
#define RECV_MAX       32768 //  one datagram of answers
#define OP_MAX         96    //  an operation's description in an error
#define EXTACK_MAX     128   //  the kernel's extended ack message kept
#define NETNS_SELF     "/proc/thread-self/ns/net"
#define NETNS_DIR_MODE 0755

struct _agent_netlink_t {
    int fd;
    uint32_t seq;
    char extack[EXTACK_MAX]; //  the last error's message from the kernel, or empty
};

//  A request being built. The union aligns the buffer for nlmsghdr.
typedef struct {
    union {
        struct nlmsghdr header;
        char bytes[MSG_MAX];
    } buffer;
} s_msg_t;

typedef void(s_parse_fn)(const struct nlmsghdr *reply, void *arg);

//  An interface name the kernel takes (length only; the kernel checks the rest).
static bool
s_name_valid(const char *name)
{
    return name && *name && strlen(name) <= AGENT_NETLINK_IFNAME_MAX;
}

//  Start a request of type with flags and a zeroed family header of size.
//  Returns the family header.
static void *
s_msg_start(s_msg_t *msg, uint16_t type, uint16_t flags, size_t size)
{
    memset(msg, 0, sizeof *msg);
    msg->buffer.header.nlmsg_len = NLMSG_LENGTH(size);
    msg->buffer.header.nlmsg_type = type;
    msg->buffer.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
    return NLMSG_DATA(&msg->buffer.header);
}

//  Append len zeroed bytes (aligned) and return them. Our requests have fixed
//  shapes well under MSG_MAX, so running out is a programmer error.
static void *
s_msg_put(s_msg_t *msg, size_t len)
{
    struct nlmsghdr *header = &msg->buffer.header;
    size_t offset = NLMSG_ALIGN(header->nlmsg_len);
    assert(offset + NLMSG_ALIGN(len) <= MSG_MAX);
    char *data = msg->buffer.bytes + offset;
    memset(data, 0, NLMSG_ALIGN(len));
    header->nlmsg_len = (uint32_t) (offset + NLMSG_ALIGN(len));
    return data;
}

//  Append an attribute holding len bytes of data (none when data is NULL).
static struct rtattr *
s_msg_attr(s_msg_t *msg, unsigned short type, const void *data, size_t len)
{
    struct rtattr *attr = s_msg_put(msg, RTA_LENGTH(len));
    attr->rta_type = type;
    attr->rta_len = (unsigned short) RTA_LENGTH(len);
    if (data)
        memcpy(RTA_DATA(attr), data, len);
    return attr;
}

static void
s_msg_str(s_msg_t *msg, unsigned short type, const char *value)
{
    s_msg_attr(msg, type, value, strlen(value) + 1);
}

static void
s_msg_u32(s_msg_t *msg, unsigned short type, uint32_t value)
{
    s_msg_attr(msg, type, &value, sizeof value);
}

//  A nested attribute: open it, append its contents, close it.
static struct rtattr *
s_msg_nest(s_msg_t *msg, unsigned short type)
{
    return s_msg_attr(msg, type, NULL, 0);
}

static void
s_msg_nest_end(s_msg_t *msg, struct rtattr *nest)
{
    char *end = msg->buffer.bytes + msg->buffer.header.nlmsg_len;
    nest->rta_len = (unsigned short) (end - (char *) nest);
}

//  Keep the kernel's extended ack message of an error answer, if it has one.
static void
s_read_extack(agent_netlink_t *self, const struct nlmsghdr *reply)
{
    if (!(reply->nlmsg_flags & NLM_F_ACK_TLVS))
        return;
    const struct nlmsgerr *error = NLMSG_DATA(reply);
    //  the echoed request is only its header when capped, else all of it
    size_t offset = sizeof *error;
    if (!(reply->nlmsg_flags & NLM_F_CAPPED))
        offset += NLMSG_ALIGN(error->msg.nlmsg_len) - sizeof error->msg;
    size_t payload = NLMSG_PAYLOAD(reply, 0);
    if (offset >= payload)
        return;
    const struct rtattr *attr =
        (const struct rtattr *) ((const char *) NLMSG_DATA(reply) + offset);
    int left = (int) (payload - offset);
    for (; RTA_OK(attr, left); attr = RTA_NEXT(attr, left)) {
        if (attr->rta_type != NLMSGERR_ATTR_MSG || RTA_PAYLOAD(attr) == 0)
            continue;
        size_t len = strnlen(RTA_DATA(attr), RTA_PAYLOAD(attr));
        if (len >= sizeof self->extack)
            len = sizeof self->extack - 1;
        memcpy(self->extack, RTA_DATA(attr), len);
        self->extack[len] = '\0';
    }
}

//  Send the request and read answers until its ack; data messages go to
//  parse (when given). Returns 0 or a negative errno, the kernel's or ours.
static int
s_request(agent_netlink_t *self, s_msg_t *msg, s_parse_fn *parse, void *arg)
{
    struct nlmsghdr *header = &msg->buffer.header;
    header->nlmsg_seq = ++self->seq;
    self->extack[0] = '\0';
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    ssize_t sent;
    do
        sent = sendto(self->fd, header, header->nlmsg_len, 0, (struct sockaddr *) &kernel,
                      sizeof kernel);
    while (sent < 0 && errno == EINTR);
    if (sent < 0)
        return -errno;
    if ((size_t) sent != header->nlmsg_len)
        return -EIO;

    union {
        struct nlmsghdr header;
        char bytes[RECV_MAX];
    } buffer;
    bool truncated = false;
    while (true) {
        struct iovec iov = {.iov_base = buffer.bytes, .iov_len = sizeof buffer};
        struct sockaddr_nl from;
        struct msghdr answer = {.msg_name = &from,
                                .msg_namelen = sizeof from,
                                .msg_iov = &iov,
                                .msg_iovlen = 1};
        ssize_t len = recvmsg(self->fd, &answer, 0);
        if (len < 0 && errno == EINTR)
            continue;
        if (len < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
        if (from.nl_pid != 0)
            continue; //  not from the kernel
        //  a datagram too big for us: its messages are lost, the ack follows
        truncated = truncated || (answer.msg_flags & MSG_TRUNC);
        int left = (int) len;
        for (struct nlmsghdr *reply = &buffer.header; NLMSG_OK(reply, left);
             reply = NLMSG_NEXT(reply, left)) {
            if (reply->nlmsg_seq != header->nlmsg_seq)
                continue;
            if (reply->nlmsg_type == NLMSG_ERROR) {
                if (reply->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
                    return -EPROTO;
                const struct nlmsgerr *error = NLMSG_DATA(reply);
                if (error->error)
                    s_read_extack(self, reply);
                if (error->error == 0 && truncated)
                    return -EMSGSIZE;
                return error->error > 0 ? -EPROTO : error->error;
            }
            if (reply->nlmsg_type == NLMSG_DONE)
                return truncated ? -EMSGSIZE : 0;
            if (parse)
                parse(reply, arg);
        }
    }
}

//  Fill err for a request that failed with rc (a negative errno), naming the
//  operation; EEXIST is CONFLICT, ENODEV NOT_FOUND, the rest INTERNAL.
//  Returns the status.
static int s_fail(agent_netlink_t *self, int rc, bus_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
s_fail(agent_netlink_t *self, int rc, bus_error_t *err, const char *fmt, ...)
{
    char op[OP_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(op, sizeof op, fmt, args);
    va_end(args);
    int status = rc == -EEXIST   ? BUS_STATUS_CONFLICT
                 : rc == -ENODEV ? BUS_STATUS_NOT_FOUND
                                 : BUS_STATUS_INTERNAL;
    if (self->extack[0])
        return bus_error_set(err, status, "netlink %s: %s (%s)", op, strerror(-rc),
                             self->extack);
    return bus_error_set(err, status, "netlink %s: %s", op, strerror(-rc));
}

//  Fill the agent_netlink_link_t at arg from a RTM_NEWLINK message.
static void
s_parse_link(const struct nlmsghdr *reply, void *arg)
{
    agent_netlink_link_t *link = arg;
    if (reply->nlmsg_type != RTM_NEWLINK ||
        reply->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifinfomsg)))
        return;
    const struct ifinfomsg *info = NLMSG_DATA(reply);
    link->index = info->ifi_index;
    link->up = (info->ifi_flags & IFF_UP) != 0;
    int left = (int) IFLA_PAYLOAD(reply);
    for (const struct rtattr *attr = IFLA_RTA(info); RTA_OK(attr, left);
         attr = RTA_NEXT(attr, left)) {
        if (attr->rta_type == IFLA_MASTER && RTA_PAYLOAD(attr) >= sizeof(uint32_t)) {
            uint32_t master;
            memcpy(&master, RTA_DATA(attr), sizeof master);
            link->master = (int) master;
        } else if (attr->rta_type == IFLA_LINKINFO) {
            int nested = (int) RTA_PAYLOAD(attr);
            for (const struct rtattr *item = RTA_DATA(attr); RTA_OK(item, nested);
                 item = RTA_NEXT(item, nested)) {
                if (item->rta_type != IFLA_INFO_KIND)
                    continue;
                size_t len = strnlen(RTA_DATA(item), RTA_PAYLOAD(item));
                if (len >= sizeof link->kind)
                    len = sizeof link->kind - 1;
                memcpy(link->kind, RTA_DATA(item), len);
                link->kind[len] = '\0';
            }
        }
    }
}

//  A rtnetlink socket in the calling thread's namespace, or -1 (errno set).
static int
s_socket_open(void)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return -1;
    int one = 1;
    //  both are optional: without them errors just lack the kernel's message
    setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof one);
    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof one);
    struct timeval timeout = {.tv_sec = AGENT_NETLINK_TIMEOUT_MS / 1000,
                              .tv_usec = (AGENT_NETLINK_TIMEOUT_MS % 1000) * 1000};
    struct sockaddr_nl local = {.nl_family = AF_NETLINK};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0 ||
        bind(fd, (struct sockaddr *) &local, sizeof local) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

//  ---------------------------------------------------------------------------
//  A rtnetlink socket in the calling thread's namespace.

agent_netlink_t *
agent_netlink_new(bus_error_t *err)
{
    agent_netlink_t *self = calloc(1, sizeof *self);
    if (!self) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    self->fd = s_socket_open();
    if (self->fd < 0) {
        bus_error_set(err, BUS_STATUS_INTERNAL, "netlink socket: %s", strerror(errno));
        free(self);
        return NULL;
    }
    return self;
}

//  ---------------------------------------------------------------------------
//  Close the socket.

void
agent_netlink_destroy(agent_netlink_t **self_p)
{
    assert(self_p);
    agent_netlink_t *self = *self_p;
    if (!self)
        return;
    close(self->fd);
    free(self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------------
//  Look a link up by name.

int
agent_netlink_link_get(agent_netlink_t *self,
                       const char *name,
                       agent_netlink_link_t *link,
                       bus_error_t *err)
{
    assert(self);
    assert(link);
    memset(link, 0, sizeof *link);
    if (!s_name_valid(name))
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no link named \"%s\"",
                             name ? name : "");
    s_msg_t msg;
    struct ifinfomsg *info = s_msg_start(&msg, RTM_GETLINK, 0, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, name);
    int rc = s_request(self, &msg, s_parse_link, link);
    if (rc == 0 && link->index <= 0)
        rc = -EPROTO;
    if (rc != 0)
        return s_fail(self, rc, err, "get link %s", name);
    snprintf(link->name, sizeof link->name, "%s", name);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Make a bridge.

int
agent_netlink_bridge_add(agent_netlink_t *self, const char *name, bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(name))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid bridge name");
    s_msg_t msg;
    struct ifinfomsg *info =
        s_msg_start(&msg, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, name);
    struct rtattr *linkinfo = s_msg_nest(&msg, IFLA_LINKINFO);
    s_msg_str(&msg, IFLA_INFO_KIND, "bridge");
    s_msg_nest_end(&msg, linkinfo);
    int rc = s_request(self, &msg, NULL, NULL);
    return rc ? s_fail(self, rc, err, "add bridge %s", name) : BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Make a veth pair with its peer in another namespace.

int
agent_netlink_veth_add(agent_netlink_t *self,
                       const char *name,
                       const char *peer,
                       int peer_netns_fd,
                       bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(name) || !s_name_valid(peer))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid veth name");
    s_msg_t msg;
    struct ifinfomsg *info =
        s_msg_start(&msg, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, name);
    struct rtattr *linkinfo = s_msg_nest(&msg, IFLA_LINKINFO);
    s_msg_str(&msg, IFLA_INFO_KIND, "veth");
    struct rtattr *data = s_msg_nest(&msg, IFLA_INFO_DATA);
    //  the peer: its own ifinfomsg, then its attributes
    struct rtattr *peer_info = s_msg_nest(&msg, VETH_INFO_PEER);
    struct ifinfomsg *peer_header = s_msg_put(&msg, sizeof *peer_header);
    peer_header->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, peer);
    s_msg_u32(&msg, IFLA_NET_NS_FD, (uint32_t) peer_netns_fd);
    s_msg_nest_end(&msg, peer_info);
    s_msg_nest_end(&msg, data);
    s_msg_nest_end(&msg, linkinfo);
    int rc = s_request(self, &msg, NULL, NULL);
    return rc ? s_fail(self, rc, err, "add veth %s peer %s", name, peer) : BUS_OK;
}

//  ---------------------------------------------------------------------------
//  No IPv6 link-local address on a link: its address generation mode none.

int
agent_netlink_link_no_ipv6_ll(agent_netlink_t *self, const char *name, bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(name))
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no link named \"%s\"",
                             name ? name : "");
    s_msg_t msg;
    struct ifinfomsg *info = s_msg_start(&msg, RTM_NEWLINK, 0, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, name);
    struct rtattr *spec = s_msg_nest(&msg, IFLA_AF_SPEC);
    struct rtattr *inet6 = s_msg_nest(&msg, AF_INET6);
    uint8_t mode = IN6_ADDR_GEN_MODE_NONE;
    s_msg_attr(&msg, IFLA_INET6_ADDR_GEN_MODE, &mode, sizeof mode);
    s_msg_nest_end(&msg, inet6);
    s_msg_nest_end(&msg, spec);
    int rc = s_request(self, &msg, NULL, NULL);
    if (rc == -EAFNOSUPPORT || rc == -EOPNOTSUPP)
        return BUS_OK; //  a host without IPv6 makes none anyway
    return rc ? s_fail(self, rc, err, "set link %s addrgenmode none", name) : BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Enslave a link to a bridge and bring it up.

int
agent_netlink_link_up(agent_netlink_t *self,
                      const char *name,
                      const agent_netlink_link_t *master,
                      bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(name))
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no link named \"%s\"",
                             name ? name : "");
    s_msg_t msg;
    struct ifinfomsg *info = s_msg_start(&msg, RTM_NEWLINK, 0, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    info->ifi_flags = IFF_UP;
    info->ifi_change = IFF_UP;
    s_msg_str(&msg, IFLA_IFNAME, name);
    if (master)
        s_msg_u32(&msg, IFLA_MASTER, (uint32_t) master->index);
    int rc = s_request(self, &msg, NULL, NULL);
    if (rc == 0)
        return BUS_OK;
    if (master)
        return s_fail(self, rc, err, "set link %s master %s up", name, master->name);
    return s_fail(self, rc, err, "set link %s up", name);
}

//  ---------------------------------------------------------------------------
//  Rename a link that is down, put it on master and bring it up, in one
//  request: the kernel renames before it changes the flags, and a link that
//  is up cannot be renamed.

int
agent_netlink_link_rename_up(agent_netlink_t *self,
                             const char *name,
                             const char *new_name,
                             const agent_netlink_link_t *master,
                             bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(new_name))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid link name \"%s\"",
                             new_name ? new_name : "");
    agent_netlink_link_t link;
    int status = agent_netlink_link_get(self, name, &link, err);
    if (status != BUS_OK)
        return status;
    s_msg_t msg;
    struct ifinfomsg *info = s_msg_start(&msg, RTM_NEWLINK, 0, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    info->ifi_index = link.index;
    info->ifi_flags = IFF_UP;
    info->ifi_change = IFF_UP;
    s_msg_str(&msg, IFLA_IFNAME, new_name);
    if (master)
        s_msg_u32(&msg, IFLA_MASTER, (uint32_t) master->index);
    int rc = s_request(self, &msg, NULL, NULL);
    return rc ? s_fail(self, rc, err, "rename link %s to %s", name, new_name) : BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Delete a link.

int
agent_netlink_link_del(agent_netlink_t *self, const char *name, bus_error_t *err)
{
    assert(self);
    if (!s_name_valid(name))
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no link named \"%s\"",
                             name ? name : "");
    s_msg_t msg;
    struct ifinfomsg *info = s_msg_start(&msg, RTM_DELLINK, 0, sizeof *info);
    info->ifi_family = AF_UNSPEC;
    s_msg_str(&msg, IFLA_IFNAME, name);
    int rc = s_request(self, &msg, NULL, NULL);
    return rc ? s_fail(self, rc, err, "delete link %s", name) : BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Give a link an IPv4 address.

int
agent_netlink_addr_add(agent_netlink_t *self,
                       const agent_netlink_link_t *link,
                       uint32_t address,
                       int prefix,
                       bool replace,
                       bus_error_t *err)
{
    assert(self);
    assert(link);
    assert(prefix >= 0 && prefix <= 32);
    s_msg_t msg;
    uint16_t flags = NLM_F_CREATE | (replace ? NLM_F_REPLACE : NLM_F_EXCL);
    struct ifaddrmsg *header = s_msg_start(&msg, RTM_NEWADDR, flags, sizeof *header);
    header->ifa_family = AF_INET;
    header->ifa_prefixlen = (unsigned char) prefix;
    header->ifa_scope = RT_SCOPE_UNIVERSE;
    header->ifa_index = (uint32_t) link->index;
    //  as `ip addr add A/P dev D`: the local and the peer address are both A
    uint32_t wire = htonl(address);
    s_msg_attr(&msg, IFA_LOCAL, &wire, sizeof wire);
    s_msg_attr(&msg, IFA_ADDRESS, &wire, sizeof wire);
    int rc = s_request(self, &msg, NULL, NULL);
    if (rc == 0)
        return BUS_OK;
    char text[INET_ADDRSTRLEN] = "";
    inet_ntop(AF_INET, &wire, text, sizeof text);
    return s_fail(self, rc, err, "add address %s/%d to %s", text, prefix, link->name);
}

//  ---------------------------------------------------------------------------
//  A default route via a gateway.

int
agent_netlink_route_add_default(agent_netlink_t *self,
                                const agent_netlink_link_t *link,
                                uint32_t gateway,
                                bus_error_t *err)
{
    assert(self);
    assert(link);
    s_msg_t msg;
    struct rtmsg *header =
        s_msg_start(&msg, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL, sizeof *header);
    header->rtm_family = AF_INET;
    header->rtm_table = RT_TABLE_MAIN;
    header->rtm_protocol = RTPROT_BOOT; //  what `ip route add` sets
    header->rtm_scope = RT_SCOPE_UNIVERSE;
    header->rtm_type = RTN_UNICAST;
    uint32_t wire = htonl(gateway);
    s_msg_attr(&msg, RTA_GATEWAY, &wire, sizeof wire);
    s_msg_u32(&msg, RTA_OIF, (uint32_t) link->index);
    int rc = s_request(self, &msg, NULL, NULL);
    if (rc == 0)
        return BUS_OK;
    char text[INET_ADDRSTRLEN] = "";
    inet_ntop(AF_INET, &wire, text, sizeof text);
    return s_fail(self, rc, err, "add default route via %s dev %s", text, link->name);
}

//  ---------------------------------------------------------------------------
//  Make the namespaces' directory a shared mount point.

int
agent_netlink_netns_prepare(const char *dir, bus_error_t *err)
{
    assert(dir);
    if (bus_mkdirs_mode(dir, NETNS_DIR_MODE) != 0)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot make %s: %s", dir,
                             strerror(errno));
    //  as iproute2: one process at a time, or the bind mounts could pile up
    int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock >= 0 && flock(lock, LOCK_EX) != 0) {
        close(lock);
        lock = -1;
    }
    int status = BUS_OK;
    bool made = false;
    while (mount("", dir, "none", MS_SHARED | MS_REC, NULL) != 0) {
        //  EINVAL: not a mount point yet; make it one (a bind mount of itself)
        if (errno != EINVAL || made) {
            status = bus_error_set(err, BUS_STATUS_INTERNAL, "mount --make-shared %s: %s",
                                   dir, strerror(errno));
            break;
        }
        if (mount(dir, dir, "none", MS_BIND | MS_REC, NULL) != 0) {
            status = bus_error_set(err, BUS_STATUS_INTERNAL, "mount --bind %s %s: %s",
                                   dir, dir, strerror(errno));
            break;
        }
        made = true;
    }
    if (lock >= 0) {
        flock(lock, LOCK_UN);
        close(lock);
    }
    return status;
}

//  dir/name into path; false for a name that is not one file's in dir.
static bool
s_netns_path(const char *dir, const char *name, char path[PATH_MAX])
{
    return *name && !strchr(name, '/') && !streq(name, ".") && !streq(name, "..") &&
           (size_t) snprintf(path, PATH_MAX, "%s/%s", dir, name) < PATH_MAX;
}

//  What the namespace-making thread is given and gives back.
typedef struct {
    const char *path;
    agent_netlink_t *inside; //  its socket in the new namespace
    bool mounted;
    bus_error_t err;
} s_netns_job_t;

//  In a thread of its own: a new network namespace, bound to path, and a
//  socket in it. The thread ends in that namespace, which is harmless.
static void *
s_netns_thread(void *arg)
{
    s_netns_job_t *job = arg;
    if (unshare(CLONE_NEWNET) != 0) {
        bus_error_set(&job->err, BUS_STATUS_INTERNAL, "unshare network namespace: %s",
                      strerror(errno));
        return NULL;
    }
    if (mount(NETNS_SELF, job->path, "none", MS_BIND, NULL) != 0) {
        bus_error_set(&job->err, BUS_STATUS_INTERNAL, "bind " NETNS_SELF " on %s: %s",
                      job->path, strerror(errno));
        return NULL;
    }
    job->mounted = true;
    job->inside = agent_netlink_new(&job->err);
    return NULL;
}

//  ---------------------------------------------------------------------------
//  Make a named network namespace and a socket in it.

int
agent_netlink_netns_add(const char *dir,
                        const char *name,
                        agent_netlink_t **inside_p,
                        bus_error_t *err)
{
    assert(dir);
    assert(name);
    assert(inside_p);
    *inside_p = NULL;
    char path[PATH_MAX];
    if (!s_netns_path(dir, name, path))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid namespace name");
    int fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
    if (fd < 0)
        return bus_error_set(err,
                             errno == EEXIST ? BUS_STATUS_CONFLICT : BUS_STATUS_INTERNAL,
                             "cannot create %s: %s", path, strerror(errno));
    close(fd);

    //  the thread takes no signal meant for the process
    s_netns_job_t job = {.path = path};
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, s_netns_thread, &job);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0)
        bus_error_set(&job.err, BUS_STATUS_INTERNAL, "cannot start a thread: %s",
                      strerror(rc));
    else
        pthread_join(thread, NULL);
    if (job.inside) {
        *inside_p = job.inside;
        return BUS_OK;
    }
    if (job.mounted)
        umount2(path, MNT_DETACH);
    unlink(path);
    return bus_error_set(err, BUS_STATUS_INTERNAL, "namespace %s: %s", name,
                         job.err.detail);
}

//  ---------------------------------------------------------------------------
//  Give a namespace another name: a name that is a mount point cannot be
//  renamed, so the namespace is bound on the new name, then the old one
//  removed.

int
agent_netlink_netns_rename(const char *dir,
                           const char *from,
                           const char *to,
                           bus_error_t *err)
{
    assert(dir && from && to);
    char from_path[PATH_MAX], to_path[PATH_MAX];
    if (!s_netns_path(dir, from, from_path) || !s_netns_path(dir, to, to_path))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid namespace name");
    int fd = open(to_path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
    if (fd < 0)
        return bus_error_set(err,
                             errno == EEXIST ? BUS_STATUS_CONFLICT : BUS_STATUS_INTERNAL,
                             "cannot create %s: %s", to_path, strerror(errno));
    close(fd);
    if (mount(from_path, to_path, "none", MS_BIND, NULL) != 0) {
        int status = errno == ENOENT ? BUS_STATUS_NOT_FOUND : BUS_STATUS_INTERNAL;
        bus_error_set(err, status, "bind %s on %s: %s", from_path, to_path,
                      strerror(errno));
        unlink(to_path);
        return status;
    }
    //  The namespace has its new name: an old one left by a failure here is
    //  only a second name, which agent_netlink_netns_del removes.
    bus_error_t step = {0};
    if (agent_netlink_netns_del(dir, from, &step) != BUS_OK)
        bus_log_warning("namespace %s kept a second name: %s", to, step.detail);
    return BUS_OK;
}

//  ---------------------------------------------------------------------------
//  Remove a namespace's name.

int
agent_netlink_netns_del(const char *dir, const char *name, bus_error_t *err)
{
    assert(dir);
    assert(name);
    char path[PATH_MAX];
    if (!s_netns_path(dir, name, path))
        return bus_error_set(err, BUS_STATUS_INVALID, "invalid namespace name");
    //  EINVAL (not a mount: a file a crash left) and ENOENT are for unlink to judge
    if (umount2(path, MNT_DETACH) != 0 && errno != EINVAL && errno != ENOENT)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot unmount %s: %s", path,
                             strerror(errno));
    if (unlink(path) == 0)
        return BUS_OK;
    if (errno == ENOENT)
        return bus_error_set(err, BUS_STATUS_NOT_FOUND, "no namespace %s", name);
    return bus_error_set(err, BUS_STATUS_INTERNAL, "cannot remove %s: %s", path,
                         strerror(errno));
}
