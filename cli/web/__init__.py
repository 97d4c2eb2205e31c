"""The browser replay viewer: a local web app over the store, and a static export of it."""
