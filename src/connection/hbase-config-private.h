/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-private.h (private): the table of settings (key file keys,
 * environment variables) shared by the setters and the loaders. */
#ifndef HBASE_CONFIG_PRIVATE_H
#define HBASE_CONFIG_PRIVATE_H

#include <hbase-glib/hbase-config.h>

G_BEGIN_DECLS

/* The rows of the table in hbase-config.h, in its order. */
typedef enum {
  SETTING_GATEWAYS,
  SETTING_BOOTSTRAP_SERVERS,
  SETTING_PROTOCOL,
  SETTING_TRANSPORT,
  SETTING_CONNECT_TIMEOUT,
  SETTING_OPERATION_TIMEOUT,
  SETTING_MAX_ATTEMPTS,
  SETTING_RETRY_BACKOFF,
  SETTING_RETRY_BACKOFF_MAX,
  SETTING_POOL_SIZE,
  SETTING_POOL_WAIT,
  SETTING_MAX_PENDING,
  SETTING_MAX_MESSAGE_SIZE,
  SETTING_COALESCE_GETS,
  SETTING_COALESCE_GETS_WINDOW,
  SETTING_TLS_CA_FILE,
  SETTING_TLS_CA_PATH,
  SETTING_TLS_VERIFY_HOSTNAME,
  SETTING_TLS_CLIENT_CERT,
  SETTING_TLS_CLIENT_KEY,
  SETTING_TLS_CLIENT_KEY_PASSWORD,
  SETTING_ALLOW_INSECURE_HTTP,
  SETTING_KERBEROS,
  SETTING_KERBEROS_QOP,
  SETTING_KERBEROS_SERVICE_PRINCIPAL,
  SETTING_KERBEROS_HTTP_PRINCIPAL,
  SETTING_KERBEROS_PRINCIPAL,
  SETTING_KERBEROS_KEYTAB,
  SETTING_KERBEROS_CCACHE,
  SETTING_PROXY_USER,
  SETTING_KERBEROS_CANONICALIZE_HOST,
  N_SETTINGS
} Setting;

/* set_uint is the setter of the plain numeric settings; the others are
 * applied by the loaders one by one. */
typedef struct {
  const char *key;
  const char *variable;
  gboolean (*set_uint) (HBaseConfig *config, guint value, GError **error);
} HBaseConfigSetting;

extern const HBaseConfigSetting _hbase_config_settings[N_SETTINGS];

/* The native backend's settings (hbase-config-native.c). */
typedef struct {
  GStrv    bootstrap;      /* "HOST:PORT" entries; NULL: none (the Thrift2 backend) */
  gboolean gateways_set;   /* the gateways were given, not the default */
} HBaseNativeSettings;

/* Writable: the setters in hbase-config-native.c change it. */
HBaseNativeSettings *_hbase_config_get_native (const HBaseConfig *config);
/* Gateways may be given only while no bootstrap server is (otherwise
 * HBASE_ERROR_ILLEGAL_ARGUMENT); marks them given. */
gboolean _hbase_config_gateways_given (HBaseConfig *config, GError **error);

/* How concurrent async gets of a table are gathered into getMultiple
 * calls (hbase-config-coalescing.c). */
typedef struct {
  guint max_keys;    /* keys per coalesced call; 1: every get on its own */
  guint window_us;   /* how long a batch waits for more gets; 0: not at all */
} HBaseGetCoalescing;

/* Writable: the setters in hbase-config-coalescing.c change it. */
HBaseGetCoalescing *_hbase_config_get_coalescing (const HBaseConfig *config);

/* The TLS settings of https gateways (hbase-config-http.c); NULL strings
 * are unset.  The key password is a secret: never put it in a message. */
typedef struct _HBaseTlsSettings {
  char *ca_file;
  char *ca_path;
  char *client_cert;
  char *client_key;
  char *client_key_password;
  gboolean no_verify_hostname;
  gboolean allow_insecure_http;   /* Kerberos and doAs on http:// gateways */
} HBaseTlsSettings;

void _hbase_tls_settings_copy  (HBaseTlsSettings *dest, const HBaseTlsSettings *src);
void _hbase_tls_settings_clear (HBaseTlsSettings *settings);
const HBaseTlsSettings *_hbase_config_get_tls (const HBaseConfig *config);

/* The Kerberos settings (hbase-config-kerberos.c); NULL strings are unset. */
typedef struct _HBaseKerberosSettings {
  gboolean enabled;
  HBaseKerberosQop qop;        /* accepted levels, never 0 */
  char *service_principal;     /* socket gateways; NULL: "hbase/_HOST" */
  char *http_principal;        /* HTTP gateways; NULL: "HTTP/_HOST" */
  char *principal;             /* the client's; NULL: the cache's */
  char *keytab;                /* log in from it (with principal) */
  char *ccache;                /* NULL: the default (KRB5CCNAME) */
  char *proxy_user;            /* doAs on HTTP gateways */
  gboolean no_canonical_host;  /* _HOST is the host as given, not its canonical name */
} HBaseKerberosSettings;

void _hbase_kerberos_settings_copy  (HBaseKerberosSettings *dest, const HBaseKerberosSettings *src);
void _hbase_kerberos_settings_clear (HBaseKerberosSettings *settings);
const HBaseKerberosSettings *_hbase_config_get_kerberos_settings (const HBaseConfig *config);
/* Applies one of the Kerberos settings from its text (the loaders). */
gboolean _hbase_config_apply_kerberos (HBaseConfig *config, Setting setting, const char *text,
                                       GError **error);
/* "true"/"false" and the like, for boolean settings; errors name @key. */
gboolean _hbase_config_parse_boolean (const char *key, const char *text, gboolean *value,
                                      GError **error);

/* Parses "http://HOST[:PORT][/PATH]" or "https://…" (an IPv6 HOST in
 * brackets; the port defaults to 80 or 443, the path to "/"): the host
 * (without brackets), the port and the normalised URL.  Errors name
 * @entry, in the words of the gateways setting. */
gboolean _hbase_config_parse_url (const char  *entry,
                                  char       **host,
                                  guint       *port,
                                  char       **url,
                                  GError     **error);
/* The host checks of the gateways setting (hbase-config.c). */
gboolean _hbase_config_check_host (const char *host, GError **error);
/* Applies one of the TLS settings from its text (the loaders). */
gboolean _hbase_config_apply_tls (HBaseConfig *config, Setting setting, const char *text,
                                  GError **error);

/* Which of the two backoff settings is wrong (with @error set), or
 * N_SETTINGS if neither. */
Setting _hbase_config_check_retry_backoff (guint first_ms, guint max_ms, GError **error);
/* Moves the contents of @src into @dest and frees @src. */
void    _hbase_config_replace             (HBaseConfig *dest, HBaseConfig *src);

G_END_DECLS

#endif /* HBASE_CONFIG_PRIVATE_H */
