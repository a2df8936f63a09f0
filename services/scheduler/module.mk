$(eval $(call SERVICE,scheduler))
