$(eval $(call SERVICE,storage-proxy))
