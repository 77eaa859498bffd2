// SPDX-License-Identifier: Apache-2.0
// Where the API reference links the types of the namespaces it depends on.
baseURLs = [
    [ 'GLib', 'https://docs.gtk.org/glib/' ],
    [ 'GObject', 'https://docs.gtk.org/gobject/' ],
    [ 'Gio', 'https://docs.gtk.org/gio/' ],
]
