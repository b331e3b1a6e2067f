package support

// What each product collects, from the API reference's notes on
// aclprofAicoreMetrics and aclprofConfigType: the AI core metrics and the
// aclprofSetConfig settings a product lacks.

// The aclprofAicoreMetrics values that name metrics, and the
// aclprofConfigType values of aclprofSetConfig.
const (
	metricL2Cache          = 6
	metricPipeExecuteUtil  = 7
	metricMemoryAccess     = 8
	configSysIOFreq        = 5
	configInterconnectFreq = 6
	configDVPPFreq         = 7
	configHostSys          = 8
	configHostSysUsage     = 9
	configHostSysUsageFreq = 10
	configOpType           = 14
	configNTSMetrics       = 15
)

// lackedMetrics are the metrics each product lacks.
var lackedMetrics = map[Product][]int{
	Ascend950PR:    {metricL2Cache, metricPipeExecuteUtil, metricMemoryAccess},
	Ascend950DT:    {metricL2Cache, metricPipeExecuteUtil, metricMemoryAccess},
	AtlasA3:        {metricPipeExecuteUtil},
	AtlasA2:        {metricPipeExecuteUtil},
	Atlas200I500A2: {metricMemoryAccess},
	AtlasInference: {metricL2Cache, metricPipeExecuteUtil, metricMemoryAccess},
	AtlasTraining:  {metricL2Cache, metricPipeExecuteUtil, metricMemoryAccess},
}

// lackedConfigs are the aclprofSetConfig settings each product lacks.
var lackedConfigs = map[Product][]int{
	Ascend950PR:    {configDVPPFreq, configHostSys, configHostSysUsage, configHostSysUsageFreq, configNTSMetrics, configOpType},
	Ascend950DT:    {configDVPPFreq, configHostSys, configHostSysUsage, configHostSysUsageFreq, configNTSMetrics, configOpType},
	AtlasA3:        {configOpType},
	AtlasA2:        {configOpType},
	Atlas200I500A2: {configInterconnectFreq, configNTSMetrics, configOpType},
	AtlasInference: {configSysIOFreq, configNTSMetrics, configOpType},
	AtlasTraining:  {configOpType},
}

// MetricOffered reports whether the chip named soc collects AI core
// metric m (0 to 8); a chip of no known product collects them all.
func MetricOffered(soc string, m int) bool {
	return !lacks(lackedMetrics, soc, m)
}

// ConfigOffered reports whether the chip named soc takes aclprofSetConfig
// setting typ.
func ConfigOffered(soc string, typ int) bool {
	return !lacks(lackedConfigs, soc, typ)
}

func lacks(table map[Product][]int, soc string, v int) bool {
	p, ok := ProductOf(soc)
	if !ok {
		return false
	}
	for _, x := range table[p] {
		if x == v {
			return true
		}
	}
	return false
}
