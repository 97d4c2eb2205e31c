"""Commands that only Cattle Trade has (`cattle paper`)."""
