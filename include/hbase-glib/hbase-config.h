/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config.h: how to reach HBase (the Thrift2 gateways, or the
 * bootstrap servers of the native backend), and how hard to try. */
#ifndef HBASE_CONFIG_H
#define HBASE_CONFIG_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

#include <hbase-glib/hbase-connection.h>

G_BEGIN_DECLS

/**
 * HBaseConfig:
 *
 * Settings of an #HBaseClient: one or more gateway endpoints, the protocol
 * and transport they speak (or, for the native backend, the bootstrap
 * servers), timeouts, the retry policy and the pool size.
 * Built in code, read from a key file or from the environment; every
 * setter validates its value and names the setting in its error.
 *
 * | setting            | key file key (group [hbase]) | environment variable              | default        |
 * |--------------------|------------------------------|-----------------------------------|----------------|
 * | gateways           | gateways                     | HBASE_GLIB_GATEWAYS               | localhost:9090 |
 * | bootstrap servers  | bootstrap-servers            | HBASE_GLIB_BOOTSTRAP_SERVERS      | none           |
 * | protocol           | protocol                     | HBASE_GLIB_PROTOCOL               | binary         |
 * | transport          | transport                    | HBASE_GLIB_TRANSPORT              | buffered       |
 * | connect timeout    | connect-timeout-ms           | HBASE_GLIB_CONNECT_TIMEOUT_MS     | 5000           |
 * | operation timeout  | operation-timeout-ms         | HBASE_GLIB_OPERATION_TIMEOUT_MS   | 60000          |
 * | attempts           | max-attempts                 | HBASE_GLIB_MAX_ATTEMPTS           | 16             |
 * | first backoff      | retry-backoff-ms             | HBASE_GLIB_RETRY_BACKOFF_MS       | 100            |
 * | longest backoff    | retry-backoff-max-ms         | HBASE_GLIB_RETRY_BACKOFF_MAX_MS   | 2000           |
 * | pool size          | pool-size                    | HBASE_GLIB_POOL_SIZE              | 8              |
 * | pool wait          | pool-wait-ms                 | HBASE_GLIB_POOL_WAIT_MS           | 10000          |
 * | queued async calls | max-pending                  | HBASE_GLIB_MAX_PENDING            | 0 (no limit)   |
 * | largest reply      | max-message-size             | HBASE_GLIB_MAX_MESSAGE_SIZE       | 268435456      |
 * | gathered gets      | coalesce-gets                | HBASE_GLIB_COALESCE_GETS          | 100            |
 * | gathering window   | coalesce-gets-window-us      | HBASE_GLIB_COALESCE_GETS_WINDOW_US| 0              |
 * | TLS CA file        | tls-ca-file                  | HBASE_GLIB_TLS_CA_FILE            | system store   |
 * | TLS CA directory   | tls-ca-path                  | HBASE_GLIB_TLS_CA_PATH            | none           |
 * | TLS host check     | tls-verify-hostname          | HBASE_GLIB_TLS_VERIFY_HOSTNAME    | true           |
 * | client certificate | tls-client-cert              | HBASE_GLIB_TLS_CLIENT_CERT        | none           |
 * | client key         | tls-client-key               | HBASE_GLIB_TLS_CLIENT_KEY         | none           |
 * | client key password| tls-client-key-password      | HBASE_GLIB_TLS_CLIENT_KEY_PASSWORD| none           |
 * | Kerberos on http://| allow-insecure-http          | HBASE_GLIB_ALLOW_INSECURE_HTTP    | false          |
 * | Kerberos           | kerberos                     | HBASE_GLIB_KERBEROS               | false          |
 * | protection levels  | kerberos-qop                 | HBASE_GLIB_KERBEROS_QOP           | any            |
 * | gateway principal  | kerberos-service-principal   | HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL | hbase/_HOST |
 * | HTTP principal     | kerberos-http-principal      | HBASE_GLIB_KERBEROS_HTTP_PRINCIPAL| HTTP/_HOST     |
 * | client principal   | kerberos-principal           | HBASE_GLIB_KERBEROS_PRINCIPAL     | the cache's    |
 * | client keytab      | kerberos-keytab              | HBASE_GLIB_KERBEROS_KEYTAB        | none           |
 * | credentials cache  | kerberos-ccache              | HBASE_GLIB_KERBEROS_CCACHE        | KRB5CCNAME     |
 * | proxy user (doAs)  | proxy-user                   | HBASE_GLIB_PROXY_USER             | none           |
 *
 * The retry defaults follow the HBase Java client's (15 retries after the
 * first attempt, a 100 ms first pause): the pauses of 16 attempts add up
 * to 11.5–23 s (jittered), so a call rides out a gateway restart shorter
 * than 11.5 s (5–10 s on an idle small machine) instead of failing, while
 * the operation timeout bounds the whole call.  Lower max-attempts for callers that prefer
 * failing fast.
 *
 * Gateways are "HOST:PORT" separated by commas or spaces; an IPv6 address
 * is written in brackets ("[::1]:9090").  A missing port means 9090.
 * "http://HOST:PORT[/PATH]" and "https://HOST:PORT[/PATH]" name gateways
 * in HTTP mode (Thrift over HTTP POSTs, binary protocol only); the tls-*
 * settings apply to the https ones.
 *
 * With Kerberos on (hbase_config_set_kerberos()), socket gateways are
 * spoken to through SASL GSSAPI (the gateway's
 * `hbase.thrift.security.qop` mode, unframed) and HTTP gateways with
 * SPNEGO (`Authorization: Negotiate`) on every request; a plain http://
 * gateway only with hbase_config_set_allow_insecure_http().
 *
 * Bootstrap servers (hbase_config_set_bootstrap_servers()) choose the
 * native backend instead (#HBaseBackend): HBase's own RPC to the masters
 * and region servers, no gateway.  A config holds either gateways or
 * bootstrap servers, never both.
 *
 * Since: 0.1
 */
typedef struct _HBaseConfig HBaseConfig;

/**
 * HBaseBackend:
 * @HBASE_BACKEND_THRIFT2: through the Thrift2 gateways (the default).
 * @HBASE_BACKEND_NATIVE: HBase's own RPC to the masters and region
 *   servers, found from the bootstrap servers; SIMPLE authentication only,
 *   and some operations fail with %HBASE_ERROR_NOT_SUPPORTED (filter
 *   strings among them).
 *
 * How a client reaches HBase; see hbase_config_get_backend().
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_BACKEND_THRIFT2,
  HBASE_BACKEND_NATIVE,
} HBaseBackend;

/**
 * HBASE_CONFIG_DEFAULT_NATIVE_PORT:
 *
 * The port of a bootstrap server given without one: the region servers'
 * default RPC port.
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_NATIVE_PORT 16020

/**
 * HBaseKerberosQop:
 * @HBASE_KERBEROS_QOP_AUTHENTICATION: authentication only: the calls
 *   travel as plain Thrift after the SASL handshake (the gateway's
 *   `hbase.thrift.security.qop=authentication`).
 * @HBASE_KERBEROS_QOP_INTEGRITY: every frame is signed (`integrity`).
 * @HBASE_KERBEROS_QOP_PRIVACY: every frame is signed and encrypted
 *   (`privacy`).
 *
 * The SASL protection levels ("quality of protection") a client accepts
 * from a Kerberos socket gateway.  A gateway offers exactly the one it is
 * configured with; the handshake fails with %HBASE_ERROR_AUTHENTICATION
 * when that one is not accepted.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_KERBEROS_QOP_AUTHENTICATION = 1 << 0,
  HBASE_KERBEROS_QOP_INTEGRITY      = 1 << 1,
  HBASE_KERBEROS_QOP_PRIVACY        = 1 << 2,
} HBaseKerberosQop;

/**
 * HBASE_KERBEROS_QOP_ANY:
 *
 * Every protection level: the default, which accepts whatever the gateway
 * offers.
 *
 * Since: 0.1
 */
#define HBASE_KERBEROS_QOP_ANY ((HBaseKerberosQop) 7)

/**
 * HBASE_CONFIG_DEFAULT_PORT:
 *
 * The gateway port used when a gateway is given without one, and the port
 * of the default gateway (localhost).
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_PORT 9090
/**
 * HBASE_CONFIG_DEFAULT_MAX_ATTEMPTS:
 *
 * How many times an operation is tried in all unless
 * hbase_config_set_max_attempts() says otherwise.
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_MAX_ATTEMPTS 16
/**
 * HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MS:
 *
 * The default pause before the first retry, in milliseconds; see
 * hbase_config_set_retry_backoff().
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MS 100
/**
 * HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MAX_MS:
 *
 * The default longest pause between retries, in milliseconds; see
 * hbase_config_set_retry_backoff().
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MAX_MS 2000
/**
 * HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE:
 *
 * The default largest reply accepted from a gateway, in bytes (256 MiB);
 * see hbase_config_set_max_message_size().
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE (256u * 1024 * 1024)
/**
 * HBASE_CONFIG_DEFAULT_COALESCE_GETS:
 *
 * The default most row keys one getMultiple call gathers from concurrent
 * hbase_table_get_async() calls; see hbase_config_set_coalesce_gets().
 *
 * Since: 0.1
 */
#define HBASE_CONFIG_DEFAULT_COALESCE_GETS 100

#define HBASE_TYPE_CONFIG (hbase_config_get_type ())
GType           hbase_config_get_type              (void) G_GNUC_CONST;
HBaseConfig    *hbase_config_new                   (void);
HBaseConfig    *hbase_config_copy                  (const HBaseConfig *config);
void            hbase_config_free                  (HBaseConfig       *config);

gboolean        hbase_config_set_gateways          (HBaseConfig       *config,
                                                    const char        *gateways,
                                                    GError           **error);
gboolean        hbase_config_add_gateway           (HBaseConfig       *config,
                                                    const char        *host,
                                                    guint              port,
                                                    GError           **error);
guint           hbase_config_get_n_gateways        (const HBaseConfig *config);
const char     *hbase_config_get_gateway_host      (const HBaseConfig *config,
                                                    guint              index);
guint           hbase_config_get_gateway_port      (const HBaseConfig *config,
                                                    guint              index);
const char     *hbase_config_get_gateway_url       (const HBaseConfig *config,
                                                    guint              index);

gboolean        hbase_config_set_bootstrap_servers (HBaseConfig       *config,
                                                    const char        *servers,
                                                    GError           **error);
const char * const *hbase_config_get_bootstrap_servers (const HBaseConfig *config);
HBaseBackend    hbase_config_get_backend           (const HBaseConfig *config);

gboolean        hbase_config_set_protocol          (HBaseConfig       *config,
                                                    HBaseProtocol      protocol,
                                                    GError           **error);
HBaseProtocol   hbase_config_get_protocol          (const HBaseConfig *config);
gboolean        hbase_config_set_transport         (HBaseConfig       *config,
                                                    HBaseTransport     transport,
                                                    GError           **error);
HBaseTransport  hbase_config_get_transport         (const HBaseConfig *config);

gboolean        hbase_config_set_connect_timeout   (HBaseConfig       *config,
                                                    guint              milliseconds,
                                                    GError           **error);
guint           hbase_config_get_connect_timeout   (const HBaseConfig *config);
gboolean        hbase_config_set_operation_timeout (HBaseConfig       *config,
                                                    guint              milliseconds,
                                                    GError           **error);
guint           hbase_config_get_operation_timeout (const HBaseConfig *config);

gboolean        hbase_config_set_max_attempts      (HBaseConfig       *config,
                                                    guint              attempts,
                                                    GError           **error);
guint           hbase_config_get_max_attempts      (const HBaseConfig *config);
gboolean        hbase_config_set_retry_backoff     (HBaseConfig       *config,
                                                    guint              first_ms,
                                                    guint              max_ms,
                                                    GError           **error);
guint           hbase_config_get_retry_backoff     (const HBaseConfig *config);
guint           hbase_config_get_retry_backoff_max (const HBaseConfig *config);

gboolean        hbase_config_set_pool_size         (HBaseConfig       *config,
                                                    guint              size,
                                                    GError           **error);
guint           hbase_config_get_pool_size         (const HBaseConfig *config);
gboolean        hbase_config_set_pool_wait         (HBaseConfig       *config,
                                                    guint              milliseconds,
                                                    GError           **error);
guint           hbase_config_get_pool_wait         (const HBaseConfig *config);
gboolean        hbase_config_set_max_pending       (HBaseConfig       *config,
                                                    guint              calls,
                                                    GError           **error);
guint           hbase_config_get_max_pending       (const HBaseConfig *config);
gboolean        hbase_config_set_max_message_size  (HBaseConfig       *config,
                                                    guint              bytes,
                                                    GError           **error);
guint           hbase_config_get_max_message_size  (const HBaseConfig *config);
gboolean        hbase_config_set_coalesce_gets     (HBaseConfig       *config,
                                                    guint              max_keys,
                                                    GError           **error);
guint           hbase_config_get_coalesce_gets     (const HBaseConfig *config);
gboolean        hbase_config_set_coalesce_gets_window (HBaseConfig    *config,
                                                    guint              microseconds,
                                                    GError           **error);
guint           hbase_config_get_coalesce_gets_window (const HBaseConfig *config);

gboolean        hbase_config_set_tls_ca_file       (HBaseConfig       *config,
                                                    const char        *path,
                                                    GError           **error);
const char     *hbase_config_get_tls_ca_file       (const HBaseConfig *config);
gboolean        hbase_config_set_tls_ca_path       (HBaseConfig       *config,
                                                    const char        *path,
                                                    GError           **error);
const char     *hbase_config_get_tls_ca_path       (const HBaseConfig *config);
void            hbase_config_set_tls_verify_hostname (HBaseConfig     *config,
                                                    gboolean           verify);
gboolean        hbase_config_get_tls_verify_hostname (const HBaseConfig *config);
gboolean        hbase_config_set_tls_client_certificate (HBaseConfig  *config,
                                                    const char        *cert_file,
                                                    const char        *key_file,
                                                    const char        *key_password,
                                                    GError           **error);
const char     *hbase_config_get_tls_client_cert   (const HBaseConfig *config);
const char     *hbase_config_get_tls_client_key    (const HBaseConfig *config);
void            hbase_config_set_allow_insecure_http (HBaseConfig     *config,
                                                    gboolean           allow);
gboolean        hbase_config_get_allow_insecure_http (const HBaseConfig *config);

void            hbase_config_set_kerberos          (HBaseConfig       *config,
                                                    gboolean           enabled);
gboolean        hbase_config_get_kerberos          (const HBaseConfig *config);
gboolean        hbase_config_set_kerberos_qop      (HBaseConfig       *config,
                                                    HBaseKerberosQop   qop,
                                                    GError           **error);
HBaseKerberosQop hbase_config_get_kerberos_qop     (const HBaseConfig *config);
gboolean        hbase_kerberos_qop_from_string     (const char        *text,
                                                    HBaseKerberosQop  *qop,
                                                    GError           **error);
gboolean        hbase_config_set_kerberos_service_principal (HBaseConfig *config,
                                                    const char        *principal,
                                                    GError           **error);
const char     *hbase_config_get_kerberos_service_principal (const HBaseConfig *config);
gboolean        hbase_config_set_kerberos_http_principal (HBaseConfig *config,
                                                    const char        *principal,
                                                    GError           **error);
const char     *hbase_config_get_kerberos_http_principal (const HBaseConfig *config);
void            hbase_config_set_kerberos_canonicalize_host (HBaseConfig *config,
                                                    gboolean           canonicalize);
gboolean        hbase_config_get_kerberos_canonicalize_host (const HBaseConfig *config);
gboolean        hbase_config_set_kerberos_keytab   (HBaseConfig       *config,
                                                    const char        *principal,
                                                    const char        *keytab,
                                                    GError           **error);
const char     *hbase_config_get_kerberos_principal (const HBaseConfig *config);
const char     *hbase_config_get_kerberos_keytab   (const HBaseConfig *config);
gboolean        hbase_config_set_kerberos_ccache   (HBaseConfig       *config,
                                                    const char        *name,
                                                    GError           **error);
const char     *hbase_config_get_kerberos_ccache   (const HBaseConfig *config);
gboolean        hbase_config_set_proxy_user        (HBaseConfig       *config,
                                                    const char        *user,
                                                    GError           **error);
const char     *hbase_config_get_proxy_user        (const HBaseConfig *config);

gboolean        hbase_config_load_key_file         (HBaseConfig       *config,
                                                    GKeyFile          *key_file,
                                                    const char        *group,
                                                    GError           **error);
gboolean        hbase_config_load_file             (HBaseConfig       *config,
                                                    const char        *path,
                                                    GError           **error);
gboolean        hbase_config_load_environment      (HBaseConfig       *config,
                                                    GError           **error);
HBaseConfig    *hbase_config_new_from_environment  (GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseConfig, hbase_config_free)

G_END_DECLS

#endif /* HBASE_CONFIG_H */
