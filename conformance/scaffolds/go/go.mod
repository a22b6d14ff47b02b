module __HRC_GO_MODULE__

go 1.21
