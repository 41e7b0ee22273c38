"""The loaded, validated model every renderer reads (never the YAML)."""
