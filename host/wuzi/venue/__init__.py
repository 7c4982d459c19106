"""The venue as a whole: the broker configuration and ACLs generated from the venue file,
and the venue-in-a-box run."""
